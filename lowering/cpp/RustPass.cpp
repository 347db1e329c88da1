//===- RustPass.cpp - an mlir::Pass whose work is done by a Rust callback -===//
//
// MLIR's pass registry and textual pipelines only know C++ passes. This one
// class stands in for every pass written in Rust: it carries the pass's
// name, argument and description, hands its option string to Rust for
// validation when a pipeline is parsed, and calls Rust to run.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

#include <memory>
#include <string>

extern "C" {
/// Runs the pass on `op` with `options`; failure fails the pipeline.
typedef MlirLogicalResult (*SptirPassRunFn)(MlirOperation op,
                                            MlirStringRef options,
                                            void *userData);
/// Checks `options`; on failure writes a message through `emit`.
typedef MlirLogicalResult (*SptirPassCheckFn)(
    MlirStringRef options, void *userData,
    void (*emit)(MlirStringRef message, void *emitData), void *emitData);
}

namespace {

struct RustPassInfo {
  std::string name, argument, description;
  /// Dialects the pass creates ops of, loaded before it runs.
  llvm::SmallVector<std::string> dependentDialects;
  SptirPassRunFn run;
  SptirPassCheckFn check;
  void *userData;
  mlir::TypeID typeID;
};

class RustPass : public mlir::Pass {
public:
  explicit RustPass(const RustPassInfo *info)
      : mlir::Pass(info->typeID), info(info) {}

  llvm::StringRef getName() const override { return info->name; }
  llvm::StringRef getArgument() const override { return info->argument; }
  llvm::StringRef getDescription() const override { return info->description; }

  mlir::LogicalResult initializeOptions(
      llvm::StringRef text,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler)
      override {
    std::string message;
    auto emit = [](MlirStringRef part, void *data) {
      static_cast<std::string *>(data)->append(part.data, part.length);
    };
    if (mlirLogicalResultIsFailure(
            info->check(wrap(text), info->userData, emit, &message)))
      return errorHandler(message);
    options = text.str();
    return mlir::success();
  }

  // Dialects cannot be loaded while passes run on several threads.
  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    for (const std::string &name : info->dependentDialects)
      if (!context->getOrLoadDialect(name))
        return mlir::emitError(mlir::UnknownLoc::get(context))
               << "pass '" << info->argument << "' needs dialect '" << name
               << "', which is not registered in this context";
    return mlir::success();
  }

  bool canScheduleOn(mlir::RegisteredOperationName) const override {
    return true;
  }

  void runOnOperation() override {
    if (mlirLogicalResultIsFailure(info->run(
            wrap(getOperation()), wrap(llvm::StringRef(options)), info->userData)))
      signalPassFailure();
  }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    auto copy = std::make_unique<RustPass>(info);
    copy->options = options;
    return copy;
  }

private:
  const RustPassInfo *info;
  std::string options;
};

} // namespace

extern "C" void sptirRegisterRustPass(MlirStringRef name, MlirStringRef argument,
                                      MlirStringRef description,
                                      MlirStringRef dependentDialects,
                                      SptirPassRunFn run, SptirPassCheckFn check,
                                      void *userData) {
  static mlir::TypeIDAllocator typeIDs;
  // Lives as long as the registry: MLIR keeps the allocator below forever.
  auto *info = new RustPassInfo{unwrap(name).str(),
                                unwrap(argument).str(),
                                unwrap(description).str(),
                                {},
                                run,
                                check,
                                userData,
                                typeIDs.allocate()};
  llvm::SmallVector<llvm::StringRef> names;
  unwrap(dependentDialects).split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names)
    info->dependentDialects.push_back(name.trim().str());
  mlir::registerPass([info] { return std::make_unique<RustPass>(info); });
}

/// Registers `argument` as a named pipeline that expands to `elements`
/// (a textual pipeline nested in the op it is scheduled on), so
/// `builtin.module(sptir-to-cpu)` works in any textual pipeline. `defaults`
/// lists the pipeline's options as `key=value` pairs; each `$key` in
/// `elements` is replaced by the value given in the pipeline's `{...}` or by
/// its default.
extern "C" void sptirRegisterPassPipeline(MlirStringRef argument,
                                          MlirStringRef description,
                                          MlirStringRef elements,
                                          MlirStringRef defaults) {
  std::string text = unwrap(elements).str();
  std::string name = unwrap(argument).str();
  auto parsePairs = [](llvm::StringRef list,
                       llvm::StringMap<std::string> &into,
                       const llvm::StringMap<std::string> *known)
      -> std::optional<std::string> {
    llvm::SmallVector<llvm::StringRef> items;
    list.split(items, ' ', -1, /*KeepEmpty=*/false);
    llvm::StringSet<> given;
    for (llvm::StringRef item : items) {
      auto [key, value] = item.split('=');
      if (value.empty())
        return ("option '" + key + "' needs a value (key=value)").str();
      if (known && !known->count(key))
        return ("unknown option '" + key + "'").str();
      if (!given.insert(key).second)
        return ("option '" + key + "' is given twice").str();
      into[key] = value.str();
    }
    return std::nullopt;
  };
  llvm::StringMap<std::string> fallback;
  (void)parsePairs(unwrap(defaults), fallback, nullptr);
  mlir::registerPassPipeline(
      unwrap(argument), unwrap(description),
      [text, name, fallback, parsePairs](
          mlir::OpPassManager &pm, llvm::StringRef options,
          llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
              errorHandler) -> mlir::LogicalResult {
        llvm::StringMap<std::string> values = fallback;
        if (auto error = parsePairs(options, values, &fallback))
          return errorHandler("pipeline '" + name + "': " + *error);
        // The GPU pipelines emit PTX 8.1 (`+ptx81`), which knows these
        // chips; LLVM aborts on a newer one instead of reporting it.
        static const llvm::StringRef chips[] = {
            "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62",
            "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
            "sm_89", "sm_90", "sm_90a"};
        auto chip = values.find("chip");
        if (chip != values.end() && !llvm::is_contained(chips, chip->second))
          return errorHandler("pipeline '" + name + "': chip '" +
                              chip->second +
                              "' is not a PTX 8.1 target (sm_50 to sm_90a)");
        std::string expanded = text;
        for (auto &entry : values) {
          std::string key = ("$" + entry.getKey()).str();
          for (size_t at = expanded.find(key); at != std::string::npos;
               at = expanded.find(key, at + entry.getValue().size()))
            expanded.replace(at, key.size(), entry.getValue());
        }
        std::string error;
        llvm::raw_string_ostream stream(error);
        if (mlir::failed(mlir::parsePassPipeline(expanded, pm, stream)))
          return errorHandler(stream.str());
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>) {});
}
