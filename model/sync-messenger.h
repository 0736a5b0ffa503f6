/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SYNC_MESSENGER_H
#define SYNC_MESSENGER_H

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ddnn
 * \brief A training job's syncing messages over the simulated network, as Horovod sends them:
 * each worker's reports to the coordinator (worker 0) and the coordinator's responses, over
 * one TCP connection per worker on Port, at Tos. Worker 0's own messages stay on its node
 * (Horovod's rank 0 coordinates and works at once). Each message is 12 bytes: its kind, the
 * worker, an iteration and a buffer.
 */
class SyncMessenger : public Object
{
  public:
    static TypeId GetTypeId();
    SyncMessenger();

    /** The kinds of message. */
    enum Kind : uint8_t
    {
        READY = 1, //!< worker to coordinator: (iteration, buffer) is ready here
        DONE = 2,  //!< worker to coordinator: this worker finished the buffer in flight
        START = 3  //!< coordinator to worker: start the collective of (iteration, buffer)
    };

    /** Bytes of one message on the wire (TCP's payload). */
    static constexpr uint32_t MESSAGE_BYTES = 12;

    /** (worker, kind, iteration, buffer) of a report that reached the coordinator. */
    typedef Callback<void, uint32_t, Kind, uint32_t, uint32_t> ReportCallback;
    /** (worker, iteration, buffer) of a START that reached the worker. */
    typedef Callback<void, uint32_t, uint32_t, uint32_t> StartCallback;
    /** (what broke, one line) */
    typedef Callback<void, const std::string&> FailureCallback;

    void SetCallbacks(ReportCallback report, StartCallback start, FailureCallback failure);

    /** The workers' nodes and addresses, worker 0 the coordinator; opens the connections
     * (call when the simulation runs). */
    void Open(const std::vector<Ptr<Node>>& nodes, const std::vector<Ipv4Address>& addresses);
    /** Worker `worker` reports to the coordinator. */
    void Report(uint32_t worker, Kind kind, uint32_t iteration, uint32_t buffer);
    /** The coordinator tells worker `worker` to start. */
    void Start(uint32_t worker, uint32_t iteration, uint32_t buffer);
    /** Closes every connection; no failure is reported from then on. */
    void Close();
    /** Bytes sent over the network, both ways (worker 0's own messages are not). */
    uint64_t GetBytesSent() const;

  protected:
    void DoDispose() override;

  private:
    /** One end of a worker's connection: its socket and what waits to be written or read. */
    struct End
    {
        Ptr<Socket> socket;
        bool connected{false};
        std::vector<uint8_t> out; //!< written once connected, or once the socket has room
        std::vector<uint8_t> in;  //!< received, not yet a whole message
    };

    void Send(End& end, Kind kind, uint32_t worker, uint32_t iteration, uint32_t buffer);
    void Flush(End& end);
    void Connected(Ptr<Socket> socket);
    void ConnectFailed(Ptr<Socket> socket);
    bool AcceptRequest(Ptr<Socket> socket, const Address& from);
    void Accepted(Ptr<Socket> socket, const Address& from);
    void HandleRead(Ptr<Socket> socket);
    void HandleSend(Ptr<Socket> socket, uint32_t available);
    void HandleClose(Ptr<Socket> socket);
    /** The end `socket` belongs to, or null. */
    End* EndOf(Ptr<Socket> socket);
    void Fail(const std::string& what);

    uint16_t m_port;
    uint8_t m_tos;

    ReportCallback m_report;
    StartCallback m_start;
    FailureCallback m_failure;
    Ptr<Socket> m_listen;
    std::vector<End> m_workerEnds;              //!< [worker]: the worker's side (1..N-1)
    std::map<uint32_t, End> m_coordinatorEnds;  //!< worker -> the coordinator's side
    std::map<Ipv4Address, uint32_t> m_workerOf; //!< address -> worker
    std::map<Ptr<Socket>, uint32_t> m_accepted; //!< accepted socket -> worker
    uint64_t m_bytesSent{0};
    bool m_closed{false};
};

} // namespace ns3

#endif /* SYNC_MESSENGER_H */
