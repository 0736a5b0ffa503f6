/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/* Deprecated in ddnn 0.2, removed in 0.3: include ns3/data-path.h (CHANGES.md). */
#include "data-path.h"
