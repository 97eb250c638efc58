// Package natsnet carries the messages of a partitioned search
// (package cluster) over NATS: an embedded server on loopback
// (StartServer), the transport of one node (Node), the coordinator's
// hiring of idle workers (Hire) and a worker's wait for jobs (Work).
//
// A node receives on the subject ringcheck.run.RUN.w.K (worker K) or
// ringcheck.run.RUN.c (the coordinator); idle workers answer job requests
// on JobsSubject in one queue group, so that each job goes to one of
// them. Every node sends a heartbeat every HeartbeatEvery on the
// subject of its peer with ".hb" appended, heard as it arrives, apart
// from the batches; the coordinator reports a worker it has heard nothing
// from for LostAfter (while itself running for at least half of that) as
// failed, and a worker stops once it has not heard from the coordinator
// for as long.
package natsnet
