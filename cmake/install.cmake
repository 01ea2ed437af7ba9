# `cmake --install build --prefix P` (docs/install.md): the program, the libraries as the CMake
# package simtlm (find_package(simtlm) gives the targets simtlm::isa ... simtlm::model), their
# headers, and the shipped data under share/simtlm, where the program finds it from its own
# location. Everything is relative to the prefix, so an installation can be moved.
include(CMakePackageConfigHelpers)

get_property(simtlm_libraries GLOBAL PROPERTY SIMTLM_LIBRARIES)
install(TARGETS simtlm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${simtlm_libraries} EXPORT simtlmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${SIMTLM_INSTALL_INCLUDEDIR})
install(DIRECTORY isa model workloads cli DESTINATION ${SIMTLM_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

install(DIRECTORY configs scenarios sweeps DESTINATION ${SIMTLM_INSTALL_DATADIR})
install(DIRECTORY workloads/kernels workloads/cuda DESTINATION ${SIMTLM_INSTALL_DATADIR}/workloads)
install(DIRECTORY examples/user_platform DESTINATION ${SIMTLM_INSTALL_DATADIR}/examples)
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/scripts/plot)
  install(DIRECTORY scripts/plot DESTINATION ${SIMTLM_INSTALL_DATADIR}/scripts
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endif()
install(FILES README.md isa/ISA.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT simtlmTargets NAMESPACE simtlm:: DESTINATION ${SIMTLM_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/simtlmConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/simtlmConfig.cmake
  INSTALL_DESTINATION ${SIMTLM_INSTALL_CMAKEDIR} PATH_VARS SIMTLM_INSTALL_DATADIR SIMTLM_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/simtlmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/simtlmConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/simtlmConfigVersion.cmake
  DESTINATION ${SIMTLM_INSTALL_CMAKEDIR})

# `cpack -G DEB` in the build folder: a .deb of the same installation (prefix /usr).
set(CPACK_PACKAGE_NAME simtlm)
set(CPACK_PACKAGE_VENDOR "simtlm")
set(CPACK_PACKAGE_CONTACT "simtlm developers <simtlm@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SystemC/TLM-2.0 model of a SIMT GPU with DARSIE, UV, affine, DAC and BOW")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The program links SystemC, Boost.Program_options, spdlog and yaml-cpp; a user platform built
# against the package needs their headers too, so the -dev packages are the dependencies.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libsystemc-dev, libboost-program-options-dev, libspdlog-dev, libyaml-cpp-dev, nlohmann-json3-dev, pkg-config")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
include(CPack)
