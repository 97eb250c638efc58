package symbolic_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/symbolic"
)

func TestProbeTmp(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROBE_N"))
	if n == 0 {
		t.Skip()
	}
	f, _ := lang.Read("../specs/ring/dijkstra.ring")
	spec, err := f.Instance(map[string]int{"n": n, "K": n})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	enc, err := symbolic.Encode(spec, symbolic.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("encoded in %v", time.Since(start))
	res, err := enc.Analyse(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("n=%d: %v configs, %v legit, closure %v convergence %v, worst %d steps, peak nodes %d, %v", n, res.Configurations, res.Legitimate, res.Closure, res.Convergence, len(res.Layers), res.PeakNodes, time.Since(start))
}
