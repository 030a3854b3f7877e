#pragma once

// Absolute paths of this checkout and its build, for tests, benchmarks and test tools. They are
// compiled into one generated source (cmake/test_paths.cc.in), and the HIGGINS_*_DIR macros that
// code uses expand to calls of these functions, so no other translation unit's command line
// names a folder: ccache then reuses those objects in a clone in another folder
// (docs/development.md, "Build cache"). Every function returns a NUL-terminated absolute path.
namespace higgins::test_paths {

const char* SourceDir();       // the repository root
const char* SharedDir();       // HIGGINS_SHARED_DIR: Arrow's gold files, the prototype's modules
const char* BrokerBinary();    // the `higgins` broker of this build
const char* UdfExamplesDir();  // the SDK's example modules (sdk/examples/*.wasm)
const char* DoubleWasm();      // UdfExamplesDir()/double.wasm
const char* UdfTestdataDir();  // the UDF engine's test modules, compiled from src/udf/testdata
const char* E2eTestdataDir();  // the end-to-end tests' modules, compiled from tests/e2e/testdata
const char* SyncFaultShim();   // the LD_PRELOAD library of tests/fault

}  // namespace higgins::test_paths
