#include "rules/rule.h"
