// Placeholder: the rules' view of a module (IR plus lazily computed analyses).
#pragma once
#include "analyzer/ir/module.h"
namespace klint { class Module; }
