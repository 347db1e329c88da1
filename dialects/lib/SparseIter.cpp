//===- SparseIter.cpp - stage I dialect: registration and verifiers -------===//

#include "sptir/Dialect/SparseIter/SparseIter.h"

#include <cmath>

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

using namespace mlir;
using namespace sptir::sparse_iter;

#include "sptir/Dialect/SparseIter/SparseIterDialect.cpp.inc"
#include "sptir/Dialect/SparseIter/SparseIterInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "sptir/Dialect/SparseIter/SparseIterTypes.cpp.inc"

void SparseIterDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "sptir/Dialect/SparseIter/SparseIterTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "sptir/Dialect/SparseIter/SparseIterOps.cpp.inc"
      >();
  addInterfaces<sptir::sparse_iter::StructureInliner>();
}

llvm::StringRef sptir::sparse_iter::stringifyAxisKind(AxisKind kind) {
  switch (kind) {
  case AxisKind::DenseFixed:
    return "dense_fixed";
  case AxisKind::DenseVariable:
    return "dense_variable";
  case AxisKind::SparseFixed:
    return "sparse_fixed";
  case AxisKind::SparseVariable:
    return "sparse_variable";
  }
  llvm_unreachable("unknown axis kind");
}

//===----------------------------------------------------------------------===//
// Axis helpers
//===----------------------------------------------------------------------===//

bool sptir::sparse_iter::isAxisParameter(Value axis) {
  auto argument = dyn_cast<BlockArgument>(axis);
  return argument && isa<AxisType>(axis.getType()) && argument.getOwner()->isEntryBlock() &&
         isa_and_nonnull<FunctionOpInterface>(argument.getOwner()->getParentOp());
}

AxisOpInterface sptir::sparse_iter::getAxisDef(Value axis, Operation *user) {
  auto def = axis.getDefiningOp<AxisOpInterface>();
  if (!def && user && !isAxisParameter(axis))
    user->emitOpError()
        << "axis operand must be defined by a sparse_iter axis op "
           "(dense_fixed, dense_variable, sparse_fixed, sparse_variable)";
  return def;
}

LogicalResult
BufferType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned rank,
                   Type elementType) {
  // The parser reads `-1` as 2^32 - 1: show what was written.
  if (rank > 64)
    return emitError() << "a sparse buffer has 0 to 64 axes, got rank "
                       << static_cast<int32_t>(rank);
  // A buffer lowers to a memref of its element type; a zero-width integer
  // would reach LLVM, whose passes do not expect it.
  auto integer = llvm::dyn_cast<IntegerType>(elementType);
  if (!BaseMemRefType::isValidElementType(elementType) ||
      (integer && integer.getWidth() == 0))
    return emitError() << "a sparse buffer's element type must be one a "
                          "memref can hold, of non-zero width, got "
                       << elementType;
  return success();
}

SmallVector<Value> sptir::sparse_iter::getAncestors(AxisOpInterface axis) {
  SmallVector<Value> chain;
  // The axis verifier refuses a cycle of parents; this stops on one even
  // where another op is verified first.
  llvm::SmallPtrSet<void *, 8> seen;
  Value parent = axis.getParentAxis();
  while (parent && seen.insert(parent.getAsOpaquePointer()).second) {
    chain.push_back(parent);
    auto def = parent.getDefiningOp<AxisOpInterface>();
    parent = def ? def.getParentAxis() : Value();
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

LogicalResult sptir::sparse_iter::verifyAxisComposition(Operation *op,
                                                        ValueRange axes) {
  llvm::SmallPtrSet<void *, 8> seen;
  for (auto [index, axis] : llvm::enumerate(axes)) {
    auto def = getAxisDef(axis, op);
    if (!def && !isAxisParameter(axis))
      return failure();
    if (!seen.insert(axis.getAsOpaquePointer()).second)
      return op->emitOpError() << "axis #" << index << " appears twice";
    if (!def)
      continue;
    // Values are stored in CSF order: a child's positions nest directly
    // inside its parent's, which is what flattening relies on.
    Value parent = def.getParentAxis();
    if (parent && (index == 0 || axes[index - 1] != parent))
      return op->emitOpError()
             << "axis #" << index << " (" << stringifyAxisKind(def.getAxisKind())
             << ") must directly follow its parent axis";
  }
  return success();
}

/// Variable and sparse axes hang under a parent; their structure arrays must
/// agree on one index type.
static LogicalResult verifyChildAxis(Operation *op, Value parent,
                                     ArrayRef<Value> arrays) {
  if (!getAxisDef(parent, op) && !isAxisParameter(parent))
    return failure();
  // At module level (a graph region) an axis can name a later one, and so
  // be its own ancestor.
  llvm::SmallPtrSet<Operation *, 8> seen{op};
  for (Value up = parent; up;) {
    Operation *def = up.getDefiningOp();
    if (!def)
      break;
    if (!seen.insert(def).second)
      return op->emitOpError()
             << "the chain of parent axes from this axis comes back to an "
                "axis already in it: axes must form a tree";
    auto axis = dyn_cast<AxisOpInterface>(def);
    up = axis ? axis.getParentAxis() : Value();
  }
  Type idType;
  for (Value array : arrays) {
    Type element = cast<MemRefType>(array.getType()).getElementType();
    if (idType && idType != element)
      return op->emitOpError() << "indptr and indices must have the same index "
                                  "type, got "
                               << idType << " and " << element;
    idType = element;
  }
  return success();
}

#define AXIS_COMMON(OP, KIND, PARENT, INDPTR, INDICES, SORTED)                  \
  AxisKind OP::getAxisKind() { return AxisKind::KIND; }                        \
  Value OP::getParentAxis() { return PARENT; }                                 \
  Value OP::getLengthValue() { return getLength(); }                           \
  Value OP::getIndptrArray() { return INDPTR; }                                \
  Value OP::getIndicesArray() { return INDICES; }                              \
  bool OP::isSortedAxis() { return SORTED; }

AXIS_COMMON(DenseFixedOp, DenseFixed, Value(), Value(), Value(), true)
AXIS_COMMON(DenseVariableOp, DenseVariable, getParent(), getIndptr(), Value(),
            true)
AXIS_COMMON(SparseFixedOp, SparseFixed, getParent(), Value(), getIndices(),
            getSorted())
AXIS_COMMON(SparseVariableOp, SparseVariable, getParent(), getIndptr(),
            getIndices(), getSorted())
#undef AXIS_COMMON

LogicalResult DenseVariableOp::verify() {
  return verifyChildAxis(*this, getParent(), {getIndptr()});
}

LogicalResult SparseFixedOp::verify() {
  return verifyChildAxis(*this, getParent(), {getIndices()});
}

LogicalResult SparseVariableOp::verify() {
  return verifyChildAxis(*this, getParent(), {getIndptr(), getIndices()});
}

//===----------------------------------------------------------------------===//
// Sparse buffers
//===----------------------------------------------------------------------===//

static LogicalResult verifyBufferAxes(Operation *op, ValueRange axes,
                                      BufferType type) {
  if (type.getRank() != axes.size())
    return op->emitOpError() << "buffer type has rank " << type.getRank()
                             << " but " << axes.size() << " axes are given";
  return verifyAxisComposition(op, axes);
}

LogicalResult MatchBufferOp::verify() {
  auto type = getBuffer().getType();
  if (failed(verifyBufferAxes(*this, getAxes(), type)))
    return failure();
  Type valueType = getValues().getType().getElementType();
  if (valueType != type.getElementType())
    return emitOpError() << "value array has element type " << valueType
                         << " but the buffer holds " << type.getElementType();
  if (auto extra = getExtraAttr(); extra && extra.getInt() < 0)
    return emitOpError() << "extra storage must be non-negative";
  if (auto def = getDefaultValueAttr())
    if (def.getType() != type.getElementType())
      return emitOpError() << "default value has type " << def.getType()
                           << " but the buffer holds " << type.getElementType();
  return success();
}

LogicalResult AllocBufferOp::verify() {
  if (failed(verifyBufferAxes(*this, getAxes(), getBuffer().getType())))
    return failure();
  if (auto scope = getScope())
    if (*scope != "global" && *scope != "shared" && *scope != "local")
      return emitOpError() << "scope must be \"global\", \"shared\" or "
                              "\"local\", got \""
                           << *scope << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Sparse iterations
//===----------------------------------------------------------------------===//

/// `[%I, fuse(%J, %K), %L]`: fused groups become `fuse_groups` sizes.
static ParseResult
parseAxisList(OpAsmParser &parser,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &axes,
              DenseI64ArrayAttr &groups) {
  SmallVector<int64_t> sizes;
  bool anyFused = false;
  auto parseElement = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("fuse"))) {
      size_t before = axes.size();
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Paren,
              [&] { return parser.parseOperand(axes.emplace_back()); }))
        return failure();
      sizes.push_back(axes.size() - before);
      // `fuse(%I)` alone groups nothing, and prints as `%I`.
      anyFused |= sizes.back() > 1;
      return success();
    }
    sizes.push_back(1);
    return parser.parseOperand(axes.emplace_back());
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseElement))
    return failure();
  if (anyFused)
    groups = parser.getBuilder().getDenseI64ArrayAttr(sizes);
  return success();
}

static void printAxisList(OpAsmPrinter &printer, IterateOp op,
                          OperandRange axes, DenseI64ArrayAttr) {
  printer << "[";
  SmallVector<int64_t> sizes = op.getGroupSizes();
  unsigned next = 0;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if (index)
      printer << ", ";
    if (size == 1) {
      printer << axes[next++];
      continue;
    }
    printer << "fuse(";
    for (int64_t k = 0; k < size; ++k) {
      if (k)
        printer << ", ";
      printer << axes[next++];
    }
    printer << ")";
  }
  printer << "]";
}

/// `body { ... }`, the iteration's last part: a failure inside it leaves
/// nothing after it to refer to what it defines.
static ParseResult parseBody(OpAsmParser &parser, Region &body) {
  SMLoc location = parser.getCurrentLocation();
  if (parser.parseKeyword("body") || parser.parseRegion(body))
    return failure();
  IterateOp::ensureTerminator(body, parser.getBuilder(),
                              parser.getEncodedSourceLoc(location));
  return success();
}

/// `init { ... } body { ... }`, or `body { ... }`. A value the init region
/// defines may take the
/// name of a value used before it was defined outside the region, which
/// resolves that use to it; if the op then failed to parse, destroying the
/// region would leave the use dangling, and MLIR's cleanup of the parse
/// would write through it. Such a region is refused and kept alive.
static ParseResult parseRegions(OpAsmParser &parser, Region &init,
                                Region &body) {
  SMLoc location = parser.getCurrentLocation();
  if (failed(parser.parseOptionalKeyword("init")))
    return parseBody(parser, body);
  auto parsed = std::make_unique<Region>();
  if (parser.parseRegion(*parsed))
    return failure();
  // The users outside may sit in blocks the parser has not yet put in a
  // region: compare against the region's own ops, not their ancestry.
  llvm::SmallPtrSet<Operation *, 16> inside;
  parsed->walk([&](Operation *op) { inside.insert(op); });
  Operation *outsideUser = nullptr;
  auto usedOutside = [&](Value value) {
    for (Operation *user : value.getUsers())
      if (!inside.contains(user))
        outsideUser = user;
    return outsideUser != nullptr;
  };
  parsed->walk([&](Block *block) {
    for (BlockArgument argument : block->getArguments())
      if (usedOutside(argument))
        return WalkResult::interrupt();
    for (Operation &op : *block)
      for (Value result : op.getResults())
        if (usedOutside(result))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (outsideUser) {
    (void)parsed.release();
    return mlir::emitError(outsideUser->getLoc())
           << "this op uses a value that the init region of a later "
              "sparse_iter.iterate defines (a name used before its "
              "definition, which the iteration's regions do not export)";
  }
  init.takeBody(*parsed);
  IterateOp::ensureTerminator(init, parser.getBuilder(),
                              parser.getEncodedSourceLoc(location));
  return parseBody(parser, body);
}

/// A region with its yield left implicit, unless the yield carries
/// attributes the implicit one would lose.
static void printImplicitYield(OpAsmPrinter &printer, Region &region) {
  Operation *terminator =
      region.empty() || region.front().empty() ? nullptr
                                               : &region.front().back();
  bool plain = !terminator || (isa<YieldOp>(terminator) &&
                               terminator->getAttrDictionary().empty());
  printer.printRegion(region, /*printEntryBlockArgs=*/true,
                      /*printBlockTerminators=*/!plain);
}

static void printRegions(OpAsmPrinter &printer, IterateOp, Region &init,
                         Region &body) {
  if (!init.empty()) {
    printer << "init ";
    printImplicitYield(printer, init);
    printer << " ";
  }
  printer << "body ";
  printImplicitYield(printer, body);
}

SmallVector<int64_t> IterateOp::getGroupSizes() {
  if (auto groups = getFuseGroupsAttr())
    return SmallVector<int64_t>(groups.asArrayRef());
  return SmallVector<int64_t>(getAxes().size(), 1);
}

/// The axes walked by iterations that enclose `op`.
static llvm::SmallPtrSet<void *, 8> enclosingAxes(Operation *op) {
  llvm::SmallPtrSet<void *, 8> walked;
  Operation *child = op;
  while (auto parent = child->getParentOfType<IterateOp>()) {
    // An init region runs before the reductions: only the spatial axes
    // have coordinates there.
    bool inInit = parent.getInit().isAncestor(child->getParentRegion());
    StringRef kinds = parent.getKinds();
    for (auto [index, axis] : llvm::enumerate(parent.getAxes()))
      if (!inInit || (index < kinds.size() && kinds[index] == 'S'))
        walked.insert(axis.getAsOpaquePointer());
    child = parent;
  }
  return walked;
}

LogicalResult IterateOp::verify() {
  ValueRange axes = getAxes();
  if (axes.empty())
    return emitOpError() << "must iterate over at least one axis";
  StringRef kinds = getKinds();
  // Checked before the length, which counts bytes, and without quoting a
  // single byte, which may be part of a multi-byte character.
  for (auto [index, kind] : llvm::enumerate(kinds))
    if (kind != 'S' && kind != 'R')
      return emitOpError() << "kinds \"" << kinds << "\": character #"
                           << index
                           << " is not 'S' (spatial) or 'R' (reduction)";
  if (kinds.size() != axes.size())
    return emitOpError() << "kinds \"" << kinds << "\" has " << kinds.size()
                         << " characters but the iteration has " << axes.size()
                         << " axes";
  if (failed(verifyLabel(*this, getLabel())))
    return failure();

  // Each axis needs its parent walked before it, here or outside.
  llvm::SmallPtrSet<void *, 8> walked = enclosingAxes(*this);
  for (auto [index, axis] : llvm::enumerate(axes)) {
    auto def = getAxisDef(axis, *this);
    if (!def && !isAxisParameter(axis))
      return failure();
    if (walked.contains(axis.getAsOpaquePointer()))
      return emitOpError() << "axis #" << index
                           << " is already walked by this or an enclosing "
                              "iteration";
    if (!def) {
      walked.insert(axis.getAsOpaquePointer());
      continue;
    }
    Value parent = def.getParentAxis();
    // A parameter parent may be walked around the helper's call.
    if (parent && !walked.contains(parent.getAsOpaquePointer()) &&
        !isAxisParameter(parent))
      return emitOpError() << "axis #" << index << " ("
                           << stringifyAxisKind(def.getAxisKind())
                           << ") comes before its parent axis, which must be "
                              "walked earlier in this or an enclosing "
                              "iteration";
    walked.insert(axis.getAsOpaquePointer());
  }

  if (auto groups = getFuseGroupsAttr()) {
    int64_t total = 0;
    for (int64_t size : groups.asArrayRef()) {
      if (size < 1)
        return emitOpError() << "fused group sizes must be positive";
      if (size > static_cast<int64_t>(axes.size()) - total)
        return emitOpError() << "fused groups cover more than the "
                             << axes.size() << " axes of the iteration";
      for (int64_t k = 1; k < size; ++k) {
        Value child = axes[total + k];
        auto childDef = child.getDefiningOp<AxisOpInterface>();
        if (childDef && childDef.getParentAxis() != axes[total + k - 1])
          return emitOpError()
                 << "fused axis #" << total + k
                 << " must be the child of the axis before it in fuse(...)";
      }
      total += size;
    }
    if (total != static_cast<int64_t>(axes.size()))
      return emitOpError() << "fused groups cover " << total
                           << " axes but the iteration has " << axes.size();
  }
  return success();
}

static LogicalResult verifyCoordinateArgs(Operation *op, Region &region,
                                          StringRef name, size_t expected,
                                          StringRef what) {
  Block &block = region.front();
  if (block.getNumArguments() != expected)
    return op->emitOpError()
           << name << " region must take " << expected << " arguments (" << what
           << "), got " << block.getNumArguments();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isIndex())
      return op->emitOpError() << name << " region argument #"
                               << arg.getArgNumber() << " must be index, got "
                               << arg.getType();
  return success();
}

LogicalResult IterateOp::verifyRegions() {
  auto verifyInitDomain = [&]() -> LogicalResult {
    // Init runs once per spatial point before the reductions, so the
    // spatial points must not depend on a reduction axis.
    ValueRange axes = getAxes();
    StringRef kinds = getKinds();
    for (auto [index, axis] : llvm::enumerate(axes)) {
      if (kinds[index] != 'S')
        continue;
      auto def = axis.getDefiningOp<AxisOpInterface>();
      if (!def) // an axis parameter: checked once inlined
        continue;
      for (Value ancestor : getAncestors(def))
        for (auto [other, candidate] : llvm::enumerate(axes))
          if (candidate == ancestor && kinds[other] == 'R')
            return emitOpError()
                   << "init region is ill-defined: spatial axis #" << index
                   << " depends on reduction axis #" << other
                   << "; initialize in a separate iteration";
    }
    return success();
  };
  if (failed(verifyCoordinateArgs(*this, getBody(), "body", getAxes().size(),
                                  "one coordinate per axis")))
    return failure();
  if (getInit().empty())
    return success();
  if (!getInit().hasOneBlock())
    return emitOpError() << "init region must have one block";
  size_t spatial = llvm::count(getKinds(), 'S');
  if (getKinds().size() == spatial)
    return emitOpError() << "init region needs at least one reduction axis";
  if (failed(verifyCoordinateArgs(*this, getInit(), "init", spatial,
                                  "one coordinate per spatial axis")))
    return failure();
  return verifyInitDomain();
}

//===----------------------------------------------------------------------===//
// Access
//===----------------------------------------------------------------------===//

LogicalResult sptir::sparse_iter::verifyLabel(Operation *op, StringRef label) {
  if (label.empty())
    return op->emitOpError() << "label must not be empty";
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(label.begin());
  if (!llvm::isLegalUTF8String(&begin,
                               reinterpret_cast<const llvm::UTF8 *>(label.end())))
    return op->emitOpError() << "label must be UTF-8 text";
  return success();
}

LogicalResult sptir::sparse_iter::verifyAccessRank(Operation *op, BufferType type,
                                     size_t count, StringRef what) {
  if (type.getRank() != count)
    return op->emitOpError() << "buffer of rank " << type.getRank()
                             << " accessed with " << count << " " << what;
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccessRank(*this, getBuffer().getType(),
                                getCoords().size(), "coordinates");
}

LogicalResult StoreOp::verify() {
  return verifyAccessRank(*this, getBuffer().getType(),
                                getCoords().size(), "coordinates");
}

//===----------------------------------------------------------------------===//
// Format decomposition
//===----------------------------------------------------------------------===//

/// The value of `expr` at `dims` in 64-bit integers, or nothing where a
/// step overflows (AffineMap::compose would fold it to no constant, and
/// reading one from it is undefined). Divisors are positive constants
/// (checked before).
static std::optional<int64_t> evaluateAt(AffineExpr expr, ArrayRef<int64_t> dims) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> lhs = evaluateAt(binary.getLHS(), dims);
  std::optional<int64_t> rhs = evaluateAt(binary.getRHS(), dims);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(*lhs, *rhs);
  case AffineExprKind::Mul:
    return llvm::checkedMul(*lhs, *rhs);
  case AffineExprKind::Mod:
    return *rhs > 0 ? std::optional<int64_t>(llvm::mod(*lhs, *rhs)) : std::nullopt;
  case AffineExprKind::FloorDiv:
    return *rhs > 0 ? std::optional<int64_t>(llvm::divideFloorSigned(*lhs, *rhs)) : std::nullopt;
  case AffineExprKind::CeilDiv:
    return *rhs > 0 ? std::optional<int64_t>(llvm::divideCeilSigned(*lhs, *rhs)) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// `map` at `point`, each result in 64-bit integers; nothing where one
/// overflows.
static std::optional<SmallVector<int64_t>> evaluateAt(AffineMap map, ArrayRef<int64_t> point) {
  SmallVector<int64_t> values;
  for (AffineExpr result : map.getResults()) {
    std::optional<int64_t> value = evaluateAt(result, point);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

LogicalResult FormatRewriteOp::verify() {
  BufferType source = getSource().getType(), target = getTarget().getType();
  if (source.getElementType() != target.getElementType())
    return emitOpError() << "source holds " << source.getElementType()
                         << " but target holds " << target.getElementType();
  AffineMap map = getMap(), inverse = getInverse();
  if (map.getNumSymbols() || inverse.getNumSymbols())
    return emitOpError() << "maps must not have symbols";
  if (map.getNumDims() != source.getRank() ||
      map.getNumResults() != target.getRank())
    return emitOpError() << "map must take " << source.getRank()
                         << " source coordinates to " << target.getRank()
                         << " target coordinates";
  if (inverse.getNumDims() != target.getRank() ||
      inverse.getNumResults() != source.getRank())
    return emitOpError() << "inverse must take " << target.getRank()
                         << " target coordinates to " << source.getRank()
                         << " source coordinates";
  if (getSource() == getTarget())
    return emitOpError() << "source and target must be different buffers";
  // Coordinates are computed with arith's divisions, for which a zero
  // divisor is undefined behaviour: only positive constants divide.
  for (auto [name, m] : {std::pair<const char *, AffineMap>{"map", map},
                         std::pair<const char *, AffineMap>{"inverse", inverse}}) {
    for (AffineExpr result : m.getResults()) {
      AffineExpr bad;
      result.walk([&](AffineExpr e) {
        auto binary = dyn_cast<AffineBinaryOpExpr>(e);
        if (!binary || (e.getKind() != AffineExprKind::Mod &&
                        e.getKind() != AffineExprKind::FloorDiv &&
                        e.getKind() != AffineExprKind::CeilDiv))
          return;
        auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
        if (!bad && (!divisor || divisor.getValue() <= 0))
          bad = e;
      });
      if (bad) {
        std::string text;
        llvm::raw_string_ostream os(text);
        bad.print(os);
        return emitOpError() << name << " computes '" << text
                             << "': mod, floordiv and ceildiv need a positive constant divisor";
      }
    }
  }
  // `inverse` must undo `map` at every source coordinate, or a rewritten
  // iteration reads and writes other elements than the source's (and the
  // copy, which fills a slot only with the element `map` sends there,
  // drops one). Checked at sample coordinates (small, around powers of
  // two, where floordiv and mod wrap, up to 2^31: large ones last, so a
  // map of many dimensions, which takes fewer per dimension, keeps the
  // small), at most about 20000 of them: a refutation, not a proof.
  static constexpr int64_t samples[] = {
      0,    1,    2,    3,     4,     5,     7,       8,       9,
      15,   16,   17,   31,    32,    33,    63,      64,      65,
      99,   127,  128,  1000,  2047,  2048,  2049,    65535,   65536,
      65537, 1048575, 1048576, 1048577, 2147483647, 2147483648};
  unsigned rank = map.getNumDims();
  size_t perDim = std::size(samples);
  while (perDim > 2 && std::pow(double(perDim), double(rank)) > 20000)
    --perDim;
  SmallVector<size_t> digit(rank, 0);
  while (true) {
    SmallVector<int64_t> point;
    for (size_t d : digit)
      point.push_back(samples[d]);
    std::string text;
    llvm::raw_string_ostream os(text);
    auto list = [&](ArrayRef<int64_t> values) {
      os << "(";
      llvm::interleaveComma(values, os);
      os << ")";
    };
    std::optional<SmallVector<int64_t>> target = evaluateAt(map, point);
    std::optional<SmallVector<int64_t>> back =
        target ? evaluateAt(inverse, *target) : std::nullopt;
    if (!back) {
      os << (target ? "inverse overflows 64-bit integers at target coordinate "
                    : "map overflows 64-bit integers at source coordinate ");
      list(target ? ArrayRef<int64_t>(*target) : ArrayRef<int64_t>(point));
      return emitOpError() << text;
    }
    if (*back != point) {
      os << "map takes source coordinate ";
      list(point);
      os << " to ";
      list(*target);
      os << ", which inverse takes to ";
      list(*back);
      return emitOpError() << "inverse does not undo map: " << text;
    }
    unsigned d = 0;
    while (d < rank && ++digit[d] == perDim)
      digit[d++] = 0;
    if (d == rank)
      return success();
  }
}

#define GET_OP_CLASSES
#include "sptir/Dialect/SparseIter/SparseIterOps.cpp.inc"
