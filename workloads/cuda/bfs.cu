// Breadth-first search (Kim et al. ISCA 2013 Table 1/2 "bfs", from Rodinia; also the BOW
// paper's and the UV paper's BFS), after Rodinia's two-kernel frontier BFS
// (docs/workloads/bfs.md): one thread per node. The expand kernel takes the nodes of the
// current frontier: each clears its frontier flag and, for every neighbour not yet visited,
// sets the neighbour's cost to its own plus one and flags it for the next frontier. The commit
// kernel turns the flagged nodes into the new frontier, marks them visited and raises the
// iteration's "changed" flag, which is what the host's loop tests to stop.
// Changed: the masks are 32-bit words rather than bools; the host's `over` flag is one word
// per iteration (the launches are fixed in advance, so each iteration raises its own).
// CUDA-only.
// Compile: nvcc -ptx -O3 -arch=compute_75 bfs.cu -o bfs.ptx

#define BLOCK 512  // threads per block (Rodinia's MAX_THREADS_PER_BLOCK; the launch must use it)

extern "C" __global__ void bfs_expand(const int* __restrict__ first_edge,
                                      const int* __restrict__ degree,
                                      const int* __restrict__ edges, int* frontier,
                                      int* updating, const int* __restrict__ visited,
                                      int* cost, int nodes) {
  const int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < nodes && frontier[v]) {
    frontier[v] = 0;
    const int begin = first_edge[v];
    const int end = begin + degree[v];
    for (int e = begin; e < end; e++) {
      const int u = edges[e];
      if (!visited[u]) {  // every writer of cost[u] writes the same level
        cost[u] = cost[v] + 1;
        updating[u] = 1;
      }
    }
  }
}

extern "C" __global__ void bfs_commit(int* frontier, int* updating, int* visited, int* changed,
                                      int nodes) {
  const int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < nodes && updating[v]) {
    frontier[v] = 1;
    visited[v] = 1;
    *changed = 1;
    updating[v] = 0;
  }
}
