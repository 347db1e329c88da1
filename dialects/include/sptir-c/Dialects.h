/*===- sptir-c/Dialects.h - C API of the sptir dialects -----------------===*/
/* Lets another MLIR-based compiler load sptir's dialects into its own
 * context, and build sptir types without parsing strings. */

#ifndef SPTIR_C_DIALECTS_H
#define SPTIR_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SparseIter, sparse_iter);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SparsePos, sparse_pos);

/// Inserts the sparse_iter and sparse_pos dialects into `registry`.
MLIR_CAPI_EXPORTED void sptirRegisterAllDialects(MlirDialectRegistry registry);

/// Registers sptir's passes with MLIR's global pass registry, so textual
/// pipelines can name them (defined by the sptir lowering library).
MLIR_CAPI_EXPORTED void sptirRegisterAllPasses(void);

MLIR_CAPI_EXPORTED MlirType sptirAxisTypeGet(MlirContext ctx);
MLIR_CAPI_EXPORTED bool sptirTypeIsAAxis(MlirType type);
MLIR_CAPI_EXPORTED MlirType sptirBufferTypeGet(MlirContext ctx, unsigned rank,
                                               MlirType elementType);
MLIR_CAPI_EXPORTED bool sptirTypeIsABuffer(MlirType type);
MLIR_CAPI_EXPORTED unsigned sptirBufferTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED MlirType sptirBufferTypeGetElementType(MlirType type);

/// Parses `source` as a module, naming its locations after `sourceName`;
/// several top-level ops are wrapped in an implicit module as mlir-opt does.
/// Returns a null module (and emits diagnostics) on failure.
MLIR_CAPI_EXPORTED MlirModule sptirParseSourceString(MlirContext ctx,
                                                     MlirStringRef source,
                                                     MlirStringRef sourceName);

#ifdef __cplusplus
}
#endif

#endif
