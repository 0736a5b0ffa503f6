/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DDNN_RUNNER_RUNNER_H
#define DDNN_RUNNER_RUNNER_H

/*
 * The runner: the machinery behind the example programs (scenario files and campaigns, building
 * and running a scenario, outputs and reports). It links the ns-3 module ddnn but is not part of
 * it: neither installed nor in ns3/ddnn-module.h, and no module file includes it. doc/design.rst,
 * "Two layers: the module and the runner", says why.
 */
#include "campaign-allocation.h"
#include "campaign-estimate.h"
#include "campaign-report.h"
#include "datacenter-run.h"
#include "distributed-run.h"
#include "input-file.h"
#include "ns3-defaults.h"
#include "outlier-iterations.h"
#include "output-manifest.h"
#include "program-main.h"
#include "progress-meter.h"
#include "random-variable-text.h"
#include "run-intervals.h"
#include "scaled-replica.h"
#include "scenario-attributes.h"
#include "scenario-file.h"
#include "scenario.h"
#include "seed-reference.h"
#include "training-run.h"

#endif /* DDNN_RUNNER_RUNNER_H */
