// Copyright (c) 2021 Silvano DAL ZILIO
//
// MIT License

/*
Package rudd defines a concrete type for Binary Decision Diagrams (BDD), a data
structure used to efficiently represent Boolean functions over a fixed set of
variables or, equivalently, sets of Boolean vectors with a fixed size.

# This fork

This package is a fork of github.com/dalzilio/rudd (MIT licence, Silvano Dal
Zilio; see LICENSE.md and NOTICE, which also credit BuDDy, from which rudd is
adapted), taken at version v1.1.1-0.20230806153452-9e08a6ea8170 and carried
inside ringcheck so that every build of ringcheck gets the same kernel. It
always uses rudd's BuDDy-style kernel: a node array with its own hash table
(upstream, the build tag buddy selects it). It differs from upstream in that:

  - the map-based kernel (upstream's default, without the tag) and the build
    tags buddy and debug are gone: the BuDDy-style kernel is the only one, and
    the debugging statistics and logs are compiled out;
  - a node of the table holds 32-bit indices (24 bytes a node rather than
    40), so a table holds at most 2^31-1 nodes, as upstream's already did;
  - the unique table and the operation caches hash their keys by
    multiplication by odd constants and reduce the hash to the table's
    size with the high half of a 128-bit product, where upstream reduces
    modulo the size twice (two divisions a lookup);
  - the identifiers of replacers (which key the replace cache) are counted
    per BDD rather than in a variable of the package, so BDDs can be built
    on goroutines of their own;
  - a finalizer of a Node value no longer decrements its node's reference
    count itself, from the runtime's goroutine while operations run (a data
    race with the operations and with a resize of the table): it queues the
    node, and the table's garbage collection runs the Go collector, waits
    for the finalizers, and decrements the queued counts before it marks.
    Upstream left the Go collector to run when it would, so the table kept
    the nodes of dead Node values, and grew, until then (Dijkstra's ring
    n=K=10 in ringcheck's symbolic engine: 0.23 GB resident against 0.60 GB);
  - Dot returns its error with errors.New rather than with a non-constant
    format string;
  - the tests keep upstream's Milner, N-queens, operations and examples, with
    the Milner test whose name go test did not run renamed to TestMilner.

The API is upstream's.

# Basics

Each BDD has a fixed number of variables, Varnum, declared when it is
initialized (using the method New) and each variable is represented by an
(integer) index in the interval [0..Varnum), called a level. Our library support
the creation of multiple BDD with possibly different number of variables.

Most operations over BDD return a Node; that is a pointer to a "vertex" in the
BDD that includes a variable level, and the address of the low and high branch
for this node. We use integer to represent the address of Nodes, with the
convention that 1 (respectively 0) is the address of the constant function True
(respectively False).

# The kernel

For the most part, data structures and algorithms implemented in this library
are a direct adaptation of those found in the C-library BuDDy, developed by
Jorn Lind-Nielsen; we even implemented the same examples than in the BuDDy
distribution for benchmarks and regression testing. The node table is very
close to the one of the BuDDy library: a specialized data-structure that mixes
a dynamic array with a hash table.

# Automatic memory management

The library is written in pure Go, without the need for CGo or any other
dependencies. Like with MuDDy, a ML interface to BuDDy, we piggyback on the
garbage collection mechanism offered by our host language (in our case Go). We
take care of BDD resizing and memory management directly in the library, but
"external" references to BDD nodes made by user code are automatically managed
by the Go runtime: a Node value's finalizer queues its node, and the
table's garbage collection, when the table is full, runs the Go collector and
releases the queued nodes before it marks the live ones. Unlike MuDDy, we do not provide an interface, but a genuine
reimplementation of BDD in Go. As a consequence, we do not suffer from FFI
overheads when calling from Go into C.
*/
package rudd
