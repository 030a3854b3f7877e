# higgins_add_udf(): builds a C UDF into a WebAssembly module with the Higgins UDF SDK
# (sdk/README.md). Include this file once; sdk/CMakeLists.txt does, so anything added after
# add_subdirectory(sdk) can call the function.
#
#   higgins_add_udf(<name> SOURCES a.c [b.c ...] [OUTPUT_DIR <dir>])
#
# compiles the sources together with the SDK (sdk/src/*.c) with clang-14 for wasm32 and links
# them with wasm-ld into <OUTPUT_DIR>/<name>.wasm (default: HIGGINS_UDF_DIR), through a target
# `wasm_<name>` that is part of ALL. The module imports nothing and exports memory, _malloc,
# _reset, get_errors and run (docs/udf-abi.md); a source that does not define `run` (HG_MAP or
# HG_REDUCE) fails to link.

set(HIGGINS_UDF_DIR "${CMAKE_BINARY_DIR}/sdk/examples" CACHE INTERNAL
    "Folder of the WebAssembly modules built by higgins_add_udf (the SDK's examples)")
set_property(GLOBAL PROPERTY HIGGINS_UDF_DIR "${HIGGINS_UDF_DIR}")

find_program(HIGGINS_UDF_CLANG NAMES clang-14
             DOC "clang 14, which compiles UDFs to wasm32 (Debian package clang-14)")
if(NOT HIGGINS_UDF_CLANG)
  message(FATAL_ERROR "clang-14 was not found: the UDF SDK needs it to compile the example UDFs "
                      "to WebAssembly. Run scripts/install-deps (it installs clang-14 and lld-14), "
                      "or set HIGGINS_UDF_CLANG to a clang 14 binary.")
endif()
# clang runs the wasm-ld it finds next to itself or on PATH: ask it which one.
execute_process(COMMAND "${HIGGINS_UDF_CLANG}" --target=wasm32 -print-prog-name=wasm-ld
                OUTPUT_VARIABLE _higgins_udf_wasm_ld OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${_higgins_udf_wasm_ld}" OR NOT EXISTS "${_higgins_udf_wasm_ld}")
  message(FATAL_ERROR "${HIGGINS_UDF_CLANG} finds no wasm-ld linker: the UDF SDK needs it to "
                      "link WebAssembly modules. Run scripts/install-deps (it installs lld-14).")
endif()
set(HIGGINS_UDF_WASM_LD "${_higgins_udf_wasm_ld}" CACHE INTERNAL "wasm-ld used by clang")

# The SDK itself, relative to this file.
get_filename_component(_higgins_udf_sdk_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
file(GLOB HIGGINS_UDF_SDK_SOURCES CONFIGURE_DEPENDS "${_higgins_udf_sdk_dir}/src/*.c")
file(GLOB HIGGINS_UDF_SDK_HEADERS CONFIGURE_DEPENDS "${_higgins_udf_sdk_dir}/src/*.h"
     "${_higgins_udf_sdk_dir}/include/higgins/*.h")
set(HIGGINS_UDF_SDK_SOURCES "${HIGGINS_UDF_SDK_SOURCES}" CACHE INTERNAL "")
set(HIGGINS_UDF_SDK_HEADERS "${HIGGINS_UDF_SDK_HEADERS}" CACHE INTERNAL "")

# The command line of docs/udf-abi.md and sdk/README.md: freestanding wasm32 with bulk memory
# (memory.copy/memory.fill), no libc, no entry point, the stack first so that an overflow traps
# instead of overwriting data, and the ABI's exports (wasm-ld exports `memory` by itself).
set(HIGGINS_UDF_CFLAGS
    --target=wasm32 -std=c11 -O2 -mbulk-memory -nostdlib -Wall -Wextra
    "-I${_higgins_udf_sdk_dir}/include"
    -Wl,--no-entry -Wl,--stack-first -Wl,-z,stack-size=65536
    -Wl,--export=_malloc -Wl,--export=_reset -Wl,--export=get_errors
    -Wl,--export=run
    CACHE INTERNAL "clang flags of higgins_add_udf")
if(HIGGINS_WERROR)
  set(HIGGINS_UDF_CFLAGS ${HIGGINS_UDF_CFLAGS} -Werror CACHE INTERNAL "")
endif()

function(higgins_add_udf name)
  cmake_parse_arguments(U "" "OUTPUT_DIR" "SOURCES" ${ARGN})
  if(NOT U_SOURCES)
    message(FATAL_ERROR "higgins_add_udf(${name}): SOURCES is required")
  endif()
  if(NOT U_OUTPUT_DIR)
    set(U_OUTPUT_DIR "${HIGGINS_UDF_DIR}")
  endif()
  set(sources)
  foreach(source IN LISTS U_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE)
    list(APPEND sources "${source}")
  endforeach()
  set(output "${U_OUTPUT_DIR}/${name}.wasm")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${U_OUTPUT_DIR}"
    COMMAND "${HIGGINS_UDF_CLANG}" ${HIGGINS_UDF_CFLAGS} -o "${output}"
            ${sources} ${HIGGINS_UDF_SDK_SOURCES}
    DEPENDS ${sources} ${HIGGINS_UDF_SDK_SOURCES} ${HIGGINS_UDF_SDK_HEADERS}
    COMMENT "Building WebAssembly UDF ${name}.wasm"
    VERBATIM)
  add_custom_target(wasm_${name} ALL DEPENDS "${output}")
endfunction()
