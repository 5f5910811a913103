// The rules no rule object stands for whose findings the front end and the
// validator make. Their documentation is the rule API's (rules/builtin_descriptions.cpp).
#include "analyzer/diagnostic.h"

namespace klint {

const RuleInfo kCompileError{
    .id = "compile-error",
    .category = Category::Input,
    .default_severity = Severity::Error,
};

const RuleInfo kInvalidSpirv{
    .id = "invalid-spirv",
    .category = Category::Input,
    .default_severity = Severity::Error,
};

const RuleInfo kInternalError{
    .id = "internal-error",
    .category = Category::Correctness,
    .default_severity = Severity::Error,
};

}  // namespace klint
