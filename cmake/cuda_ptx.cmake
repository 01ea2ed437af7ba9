# The CUDA workloads' PTX (workloads/cuda/NAME.cu, with nvcc's output committed beside it as
# NAME.ptx, so that building and running simtlm never needs CUDA), and the CUDA microbenchmarks'
# (scenarios/micro/cuda/micro.cu). When nvcc is found, the target
# `cuda_ptx` (not part of ALL) regenerates every NAME.cu into ${CMAKE_BINARY_DIR}/cuda_ptx/NAME.ptx
# with the command the committed files came from; `cmake --build build --target cuda_ptx`.
# scripts/cuda_ptx.sh regenerates the committed files in place, and the test cuda_ptx_current
# (tests/check_cuda_ptx.cmake) checks that they are what this nvcc writes. Without nvcc the
# target is not defined and the test is skipped; nothing else depends on either.
find_program(SIMTLM_NVCC nvcc HINTS $ENV{CUDA_PATH}/bin $ENV{CUDA_HOME}/bin /usr/local/cuda/bin
             DOC "nvcc, for the cuda_ptx target and the cuda_ptx_current test (optional)")
set(SIMTLM_NVCC_PTX_FLAGS -ptx -O3 -arch=compute_75)

if(SIMTLM_NVCC)
  file(GLOB SIMTLM_CUDA_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/workloads/cuda/*.cu)
  set(cuda_ptx_outputs)
  foreach(cu ${SIMTLM_CUDA_SOURCES})
    get_filename_component(name ${cu} NAME_WE)
    set(out ${CMAKE_BINARY_DIR}/cuda_ptx/${name}.ptx)
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/cuda_ptx
      COMMAND ${SIMTLM_NVCC} ${SIMTLM_NVCC_PTX_FLAGS} ${cu} -o ${out}
      DEPENDS ${cu}
      COMMENT "nvcc -ptx workloads/cuda/${name}.cu"
      VERBATIM)
    list(APPEND cuda_ptx_outputs ${out})
  endforeach()
  # The CUDA microbenchmarks (scenarios/micro/cuda/micro.cu), compiled with -DSIMTLM: without
  # their clock64() timing, which simtlm's ISA has no register for (docs/microbenchmarks.md).
  set(out ${CMAKE_BINARY_DIR}/cuda_ptx/micro/micro.ptx)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/cuda_ptx/micro
    COMMAND ${SIMTLM_NVCC} ${SIMTLM_NVCC_PTX_FLAGS} -DSIMTLM ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/micro/cuda/micro.cu -o ${out}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/scenarios/micro/cuda/micro.cu
    COMMENT "nvcc -ptx -DSIMTLM scenarios/micro/cuda/micro.cu"
    VERBATIM)
  list(APPEND cuda_ptx_outputs ${out})
  add_custom_target(cuda_ptx DEPENDS ${cuda_ptx_outputs})
endif()
