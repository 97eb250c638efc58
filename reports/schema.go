package reports

import (
	_ "embed"
	"slices"
)

//go:embed trace.schema.json
var traceSchema []byte

// TraceSchema is the JSON Schema (draft 2020-12) of the trace format that
// WriteTraceJSON writes and ReadTrace reads. What a schema cannot say —
// as many steps as the kind requires, loop_start and process indexing
// what exists, process ids in order, integers written without a fraction
// or an exponent (5, not 5.0) — ReadTrace's Validate checks; that the
// trace is an execution of its spec, showing what it claims, package
// replay checks.
func TraceSchema() []byte { return slices.Clone(traceSchema) }
