package dijkstra_test

import "runtime"

// benchWorkers is the number of workers benchmarks use: one per core
// available to the test binary.
func benchWorkers() int { return runtime.GOMAXPROCS(0) }
