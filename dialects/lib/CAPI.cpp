//===- CAPI.cpp - C API: dialect handles, registration and types ---------===//

#include "sptir-c/Dialects.h"

#include "sptir/Dialect/SparseIter/SparseIter.h"
#include "sptir/Dialect/SparsePos/SparsePos.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

using namespace sptir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SparseIter, sparse_iter,
                                      sparse_iter::SparseIterDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SparsePos, sparse_pos,
                                      sparse_pos::SparsePosDialect)

void sptirRegisterAllDialects(MlirDialectRegistry registry) {
  unwrap(registry)
      ->insert<sparse_iter::SparseIterDialect, sparse_pos::SparsePosDialect>();
}

// Types of a dialect that is registered but not yet loaded cannot be
// created, so the getters load it first.
MlirType sptirAxisTypeGet(MlirContext ctx) {
  unwrap(ctx)->getOrLoadDialect<sparse_iter::SparseIterDialect>();
  return wrap(sparse_iter::AxisType::get(unwrap(ctx)));
}

bool sptirTypeIsAAxis(MlirType type) {
  return llvm::isa<sparse_iter::AxisType>(unwrap(type));
}

MlirType sptirBufferTypeGet(MlirContext ctx, unsigned rank,
                            MlirType elementType) {
  unwrap(ctx)->getOrLoadDialect<sparse_iter::SparseIterDialect>();
  return wrap(
      sparse_iter::BufferType::get(unwrap(ctx), rank, unwrap(elementType)));
}

bool sptirTypeIsABuffer(MlirType type) {
  return llvm::isa<sparse_iter::BufferType>(unwrap(type));
}

unsigned sptirBufferTypeGetRank(MlirType type) {
  return llvm::cast<sparse_iter::BufferType>(unwrap(type)).getRank();
}

MlirType sptirBufferTypeGetElementType(MlirType type) {
  return wrap(llvm::cast<sparse_iter::BufferType>(unwrap(type)).getElementType());
}

MlirModule sptirParseSourceString(MlirContext ctx, MlirStringRef source,
                                  MlirStringRef sourceName) {
  // Like mlir-opt: several top-level ops get an implicit module around them.
  mlir::ParserConfig config(unwrap(ctx));
  return wrap(mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config,
                                                      unwrap(sourceName))
                  .release());
}
