/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef OUTPUT_MANIFEST_H
#define OUTPUT_MANIFEST_H

#include <string>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief The proof that a run's outputs are complete: DIR/MANIFEST lists every file under DIR
 * (recursively, but for MANIFEST itself, log.txt and hidden files) with its size and FNV-1a
 * checksum. Programs write it last, atomically, once every output is written; a campaign
 * counts a run as finished only when its manifest exists and every file still matches.
 */
void WriteOutputManifest(const std::string& dir);

/**
 * \ingroup ddnn
 * \brief What made a run's outputs, for its MANIFEST: "ddnn 0.2.0 (git 1a2b3c4d5e6f) on
 * ns-3.37" (", modified" when the sources differed from that commit; "not from git" for a
 * release archive; "git revision unknown" for a checkout git could not read).
 */
std::string BuiltBy();

/**
 * Whether DIR/MANIFEST exists and every file it lists has its size and checksum; when not,
 * `why` says what is missing or differs.
 */
bool VerifyOutputManifest(const std::string& dir, std::string& why);

} // namespace ns3

#endif /* OUTPUT_MANIFEST_H */
