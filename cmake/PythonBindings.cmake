# Finds what the Python package needs, as GEMMTUNE_BUILD_PYTHON says: Python's interpreter and
# headers, and pybind11's CMake package (from pybind11_DIR, CMAKE_PREFIX_PATH, or asked of the
# interpreter: `python3 -m pybind11 --cmakedir`, where pip installed it). Sets
# GEMMTUNE_PYTHON_FOUND; AUTO without them says what is missing and goes on.
set(GEMMTUNE_PYTHON_FOUND FALSE)
if(NOT GEMMTUNE_BUILD_PYTHON STREQUAL "OFF")
  set(required)
  if(GEMMTUNE_BUILD_PYTHON STREQUAL "ON")
    set(required REQUIRED)
  endif()
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module ${required})
  if(Python_FOUND AND NOT pybind11_DIR)
    execute_process(COMMAND ${Python_EXECUTABLE} -m pybind11 --cmakedir
                    OUTPUT_VARIABLE pybind11_cmake_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(pybind11_cmake_dir)
      set(pybind11_DIR ${pybind11_cmake_dir} CACHE PATH "pybind11's CMake package")
    endif()
  endif()
  if(Python_FOUND)
    find_package(pybind11 2.10 CONFIG ${required})
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(GEMMTUNE_PYTHON_FOUND TRUE)
    message(STATUS "Python package: Python ${Python_VERSION}, pybind11 ${pybind11_VERSION}")
  else()
    message(STATUS "Python package not built: needs Python's headers and pybind11 (python3 -m pip install pybind11)")
  endif()
endif()
