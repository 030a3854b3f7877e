# Writes one file of the web console as a C++ translation unit: a constinit higgins::web::Asset
# served at /NAME, with the Content-Type of its extension, whose bytes are a string literal of
# \xNN escapes (every byte escaped, so none merges with the next). web/CMakeLists.txt runs it at
# build time, and again whenever the file changes:
#   cmake -DINPUT=<file> -DOUTPUT=<file.cc> -DNAME=<path under web/console> -DSYMBOL=kIndexHtml
#         -P embed_file.cmake
foreach(variable INPUT OUTPUT NAME SYMBOL)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "embed_file.cmake: -D${variable}=... is missing")
  endif()
endforeach()

get_filename_component(extension "${NAME}" LAST_EXT)
string(TOLOWER "${extension}" extension)
if(extension STREQUAL ".html")
  set(content_type "text/html; charset=utf-8")
elseif(extension STREQUAL ".js" OR extension STREQUAL ".mjs")
  set(content_type "text/javascript; charset=utf-8")
elseif(extension STREQUAL ".css")
  set(content_type "text/css; charset=utf-8")
elseif(extension STREQUAL ".txt")
  set(content_type "text/plain; charset=utf-8")
elseif(extension STREQUAL ".json")
  set(content_type "application/json")
elseif(extension STREQUAL ".svg")
  set(content_type "image/svg+xml")
elseif(extension STREQUAL ".png")
  set(content_type "image/png")
elseif(extension STREQUAL ".ico")
  set(content_type "image/x-icon")
elseif(extension STREQUAL ".woff2")
  set(content_type "font/woff2")
else()
  set(content_type "application/octet-stream")
endif()

file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")

# 32 bytes a line, each byte as \xNN.
string(REPEAT "[0-9a-f]" 64 line_pattern)
string(REGEX REPLACE "(${line_pattern})" "\\1\n" lines "${hex}")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" lines "${lines}")
string(REGEX REPLACE "\n$" "" lines "${lines}")
string(REPLACE "\n" "\"\n    \"" lines "${lines}")

set(content "// Generated from web/console/${NAME} by web/cmake/embed_file.cmake: do not edit.
#include <string_view>

#include \"web/console_assets.h\"

namespace higgins::web::console_files {

extern const Asset ${SYMBOL};
constinit const Asset ${SYMBOL}{
    \"/${NAME}\", \"${content_type}\",
    std::string_view(
    \"${lines}\",
    ${size})};

}  // namespace higgins::web::console_files
")
# Unchanged bytes leave the output untouched, so nothing downstream is rebuilt.
file(CONFIGURE OUTPUT "${OUTPUT}" CONTENT "${content}" @ONLY)
