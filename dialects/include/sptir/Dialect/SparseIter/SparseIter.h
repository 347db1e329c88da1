//===- SparseIter.h - stage I dialect ------------------------------------===//

#ifndef SPTIR_DIALECT_SPARSEITER_SPARSEITER_H
#define SPTIR_DIALECT_SPARSEITER_SPARSEITER_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

namespace sptir::sparse_iter {

/// The two orthogonal properties of an axis: dense/sparse (are coordinates
/// stored?) and fixed/variable (is the row length a constant?).
enum class AxisKind { DenseFixed, DenseVariable, SparseFixed, SparseVariable };

llvm::StringRef stringifyAxisKind(AxisKind kind);

inline bool isSparse(AxisKind kind) {
  return kind == AxisKind::SparseFixed || kind == AxisKind::SparseVariable;
}
inline bool isVariable(AxisKind kind) {
  return kind == AxisKind::DenseVariable || kind == AxisKind::SparseVariable;
}

/// Lets MLIR's inliner inline a function whose body holds sptir's ops
/// (both dialects register it): axes, buffers and iterations are
/// compile-time structures that a helper taking them as parameters can
/// only use once it is inlined where they are defined. Nothing in either
/// dialect depends on the region it sits in.
struct StructureInliner : public mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Operation *, bool) const final { return true; }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool, mlir::IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool, mlir::IRMapping &) const final {
    return true;
  }
};

} // namespace sptir::sparse_iter

#include "sptir/Dialect/SparseIter/SparseIterDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "sptir/Dialect/SparseIter/SparseIterTypes.h.inc"

#include "sptir/Dialect/SparseIter/SparseIterInterfaces.h.inc"

#define GET_OP_CLASSES
#include "sptir/Dialect/SparseIter/SparseIterOps.h.inc"

namespace sptir::sparse_iter {

/// Whether an axis value is a parameter of the function it is used in (a
/// helper taking its caller's axes): its definition, and so what can be
/// checked of it, is known only once the helper is inlined where it is.
bool isAxisParameter(mlir::Value axis);

/// The op that defines an axis value, or null when the value does not come
/// from an axis definition (with an error at `user`, unless the value is an
/// axis parameter).
AxisOpInterface getAxisDef(mlir::Value axis, mlir::Operation *user);

/// The ancestors of an axis from the root down (excluding the axis).
llvm::SmallVector<mlir::Value> getAncestors(AxisOpInterface axis);

/// Verifies a buffer's axes: distinct, each child directly after its parent.
mlir::LogicalResult verifyAxisComposition(mlir::Operation *op,
                                          mlir::ValueRange axes);

/// Verifies that an access names one coordinate or position per axis.
mlir::LogicalResult verifyAccessRank(mlir::Operation *op, BufferType type,
                                     size_t count, llvm::StringRef what);

/// Verifies a loop label: not empty, and UTF-8 (passes and diagnostics
/// name loops by it).
mlir::LogicalResult verifyLabel(mlir::Operation *op, llvm::StringRef label);

} // namespace sptir::sparse_iter

#endif
