//===- SparsePos.cpp - stage II dialect: registration and verifiers -------===//

#include "sptir/Dialect/SparsePos/SparsePos.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace sptir::sparse_pos;
using sptir::sparse_iter::AxisKind;
using sptir::sparse_iter::AxisOpInterface;
using sptir::sparse_iter::BufferType;

#include "sptir/Dialect/SparsePos/SparsePosDialect.cpp.inc"
#include "sptir/Dialect/SparsePos/SparsePosEnums.cpp.inc"

void SparsePosDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "sptir/Dialect/SparsePos/SparsePosOps.cpp.inc"
      >();
  addInterfaces<sptir::sparse_iter::StructureInliner>();
}

LogicalResult ForOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isIndex())
    return emitOpError()
           << "body must take exactly one index argument (the position)";
  return sparse_iter::verifyLabel(*this, getLabel());
}

LogicalResult LoadOp::verify() {
  return sparse_iter::verifyAccessRank(*this, getBuffer().getType(),
                                       getPositions().size(), "positions");
}

LogicalResult StoreOp::verify() {
  return sparse_iter::verifyAccessRank(*this, getBuffer().getType(),
                                       getPositions().size(), "positions");
}

LogicalResult AssumeDomainOp::verify() {
  Type element = getBuffer().getType().getElementType();
  if (!element.isSignlessInteger() && !element.isIndex())
    return emitOpError() << "value domains apply to integer (indptr/indices) "
                            "buffers, got element type "
                         << element;
  return success();
}

LogicalResult FindOp::verify() {
  auto axis = sparse_iter::getAxisDef(getAxis(), *this);
  if (!axis)
    return success(sparse_iter::isAxisParameter(getAxis()));
  if (!sparse_iter::isSparse(axis.getAxisKind()))
    return emitOpError() << "coordinate lookup needs a sparse axis, got "
                         << sparse_iter::stringifyAxisKind(axis.getAxisKind());
  if (!axis.isSortedAxis())
    return emitOpError()
           << "coordinate lookup is a binary search and needs a sorted axis";
  size_t depth = sparse_iter::getAncestors(axis).size();
  if (getAncestors().size() != depth)
    return emitOpError() << "axis has " << depth << " ancestors but "
                         << getAncestors().size() << " positions are given";
  return success();
}

LogicalResult ParentPositionOp::verify() {
  auto axis = sparse_iter::getAxisDef(getAxis(), *this);
  if (!axis)
    return success(sparse_iter::isAxisParameter(getAxis()));
  if (!axis.getParentAxis())
    return emitOpError() << "axis has no parent";
  return success();
}

#define GET_OP_CLASSES
#include "sptir/Dialect/SparsePos/SparsePosOps.cpp.inc"
