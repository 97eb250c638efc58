// Package model is ringcheck's modelling vocabulary: processes with bounded
// variables placed on a topology (unidirectional or bidirectional ring,
// complete graph), FIFO channels carrying typed messages with bounded fields,
// guarded actions executed atomically, environment actions, daemons, and the
// two encodings of a configuration: a packed form of 64-bit words for storing
// and hashing, and a decoded form with names for reports.
//
// A System is declared with a Builder and is immutable once built. Search
// engines drive it through an Expander, which enumerates the successors of a
// State under the system's daemon without allocating.
//
// # Step semantics
//
// An action is a guard and an effect, executed as one atomic step. Both read
// the configuration before the step (Ctx.Get, Ctx.Read, Ctx.Head); the effect
// writes the configuration after it (Ctx.Set, Ctx.Receive, Ctx.Send). Reading a
// variable after setting it in the same effect therefore yields the old value,
// exactly as in a guarded command with simultaneous assignment; effects that
// need an intermediate value compute it in a local variable.
//
// Under the central daemon one process executes one enabled action per step.
// Under the distributed daemon any non-empty subset of the enabled processes
// executes simultaneously, every one of them reading the configuration before
// the step; under the synchronous daemon every enabled process does. The
// distributed and synchronous daemons are defined for the state-reading model
// only: a system with channels is an asynchronous interleaving (central).
//
// When a process declares FirstEnabledOnly, only its first enabled protocol
// or timeout action in declaration order may fire ("only the first enabled
// action (as per the text of the protocol) is executed", Datta, Hadid and
// Villain, Euro-Par 2002);
// environment actions (the application requesting or leaving) stand
// outside the rule and may fire whenever their guards hold.
//
// # Channels
//
// A channel is a FIFO queue of at most Capacity messages. A send to a full
// channel follows the channel's overflow policy: Drop loses the message,
// Block disables the action that sends (the step does not exist), and Error
// lets the step happen with the message lost but flags it as a violation of
// the channel bound, which the safety check reports.
package model
