/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oracle-priority.h"

#include "ddnn-csv.h"
#include "ddnn-oracle.h"
#include "one-line-error.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdlib>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OraclePriority");

NS_OBJECT_ENSURE_REGISTERED(OraclePriority);

[[maybe_unused]] static const bool g_registered
    = BufferPriorityPolicy::Register("oracle", &OraclePriority::GetTypeId);

TypeId
OraclePriority::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::OraclePriority")
              .SetParent<BufferPriorityPolicy>()
              .SetGroupName("Ddnn")
              .AddConstructor<OraclePriority>()
              .AddAttribute("ReferenceFile",
                            "The buffers.csv of a reference run of the same job with a priority "
                            "policy (columns buffer, end_s, deadline_s), at low priority.",
                            StringValue(""),
                            MakeStringAccessor(&OraclePriority::m_referenceFile),
                            MakeStringChecker())
              .AddAttribute("LowTos",
                            "The ToS of a buffer the reference never made the forward pass "
                            "wait for (0x08 -> PfifoFast band 2).",
                            UintegerValue(0x08),
                            MakeUintegerAccessor(&OraclePriority::m_lowTos),
                            MakeUintegerChecker<uint8_t>())
              .AddAttribute("HighTos",
                            "The ToS of a buffer the forward pass waited for in the reference "
                            "(0x10 -> PfifoFast band 0).",
                            UintegerValue(0x10),
                            MakeUintegerAccessor(&OraclePriority::m_highTos),
                            MakeUintegerChecker<uint8_t>());
    return tid;
}

OraclePriority::OraclePriority()
{
    NS_LOG_FUNCTION(this);
}

void
OraclePriority::Prepare(Ptr<const DnnModel> model)
{
    const std::string what = "ns3::OraclePriority::ReferenceFile";
    if (m_referenceFile.empty())
    {
        throw DdnnError(what + ": expected the buffers.csv of a reference run, got none");
    }
    char* text = nullptr;
    size_t len = 0;
    ddnn_diag diag{};
    std::vector<uint8_t> raise(model->GetBufferCount());
    int rc = ddnn_read_file(m_referenceFile.c_str(), DDNN_CSV_MAX_FILE_BYTES, &text, &len, &diag);
    if (rc == DDNN_OK)
    {
        rc = ddnn_oracle_parse(text, len, model->GetBufferCount(), raise.data(), &diag);
        std::free(text);
    }
    if (rc != DDNN_OK)
    {
        char line[600];
        ddnn_diag_format(&diag, m_referenceFile.c_str(), line, sizeof line);
        throw DdnnError(what + ": " + line);
    }
    m_raise = raise;
    for (size_t b = 0; b < m_raise.size(); ++b)
    {
        NS_LOG_INFO("buffer " << b << ": " << (m_raise[b] ? "high" : "low"));
    }
}

int
OraclePriority::GetAckTos() const
{
    return m_highTos;
}

int
OraclePriority::GetTos(Ptr<const DnnModel>, uint32_t buffer) const
{
    return buffer < m_raise.size() && m_raise[buffer] ? m_highTos : m_lowTos;
}

} // namespace ns3
