/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/* Deprecated in ddnn 0.2, removed in 0.3: include ns3/tenant-kind.h (CHANGES.md). */
#include "tenant-kind.h"
