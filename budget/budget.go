// Package budget bounds the memory a check may use. A Memory is a limit on
// the bytes the Go heap holds; the engines ask it before each large
// allocation (a chunk of the state store, a doubled hash table, the arrays
// of an analysis over every state) and between batches of work, and stop
// with what they have when the answer is no, so that a search too large
// for the machine ends with a partial report instead of being killed by
// the kernel with nothing printed.
package budget

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
)

// Memory is a limit on the heap. A nil *Memory is no limit: every request
// is granted. Its methods are safe for concurrent use.
type Memory struct {
	limit uint64

	mu sync.Mutex
	// collected is the heap right after the last collection Grow forced,
	// and forced whether there was one: near the limit, a collection is
	// forced again only once the heap has grown by a tenth of the limit
	// since, so that a search close to its budget does not collect on
	// every request.
	collected uint64
	forced    bool
}

// New returns a budget of limit bytes of heap.
func New(limit uint64) *Memory { return &Memory{limit: limit} }

// Limit returns the budget's limit in bytes (0 for a nil budget).
func (m *Memory) Limit() uint64 {
	if m == nil {
		return 0
	}
	return m.limit
}

// Exceeded is the error of a request the budget refuses: the heap holds
// Heap bytes, the request needs Need more, and the limit is Limit.
// Detail, when set, says what needed the bytes and what was not done, in
// place of "the next step".
type Exceeded struct {
	Limit, Heap, Need uint64
	Detail            string
}

// Error says the numbers, and the detail when there is one.
func (e *Exceeded) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("memory budget of %s reached: %s (about %s, with %s already in the heap)", Size(e.Limit), e.Detail, Size(e.Need), Size(e.Heap))
	}
	return fmt.Sprintf("memory budget of %s reached: the heap holds %s and the next step needs %s more", Size(e.Limit), Size(e.Heap), Size(e.Need))
}

// Grow asks for need more bytes of heap. It returns an *Exceeded when the
// heap, after a collection if one may free enough, plus need would pass
// the limit.
func (m *Memory) Grow(need uint64) error {
	if m == nil {
		return nil
	}
	heap := Heap()
	if heap+need <= m.limit {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.forced || heap > m.collected+m.limit/10 {
		// Some of the heap may be garbage (a table just replaced by its
		// double): count only what a collection keeps.
		runtime.GC()
		heap = Heap()
		m.collected, m.forced = heap, true
	}
	if heap+need <= m.limit {
		return nil
	}
	return &Exceeded{Limit: m.limit, Heap: heap, Need: need}
}

// Check is Grow(0): whether the heap is still within the limit.
func (m *Memory) Check() error { return m.Grow(0) }

// Reserve is the part of the limit that Fits leaves for what an engine
// does not count: the runtime's own memory (goroutine stacks, the
// collector's metadata, free spans not yet returned), the heap's objects
// outside the engine (the system, the monitors), and garbage between two
// collections: a sixteenth of the limit and 2 MiB, at most the limit.
func (m *Memory) Reserve() uint64 {
	if m == nil {
		return 0
	}
	return min(m.limit, m.limit/16+2<<20)
}

// Allowance is what an engine may count of its own under Fits: the limit
// less the reserve (0 for a nil budget, which has no limit).
func (m *Memory) Allowance() uint64 {
	if m == nil {
		return 0
	}
	return m.limit - m.Reserve()
}

// Fits returns an *Exceeded when an engine that holds held bytes of its
// own (as it counts them: its tables, stores and buffers) would pass the
// allowance by growing need more. It reads nothing from the runtime, so
// the same accounting always gets the same answer, whatever the garbage
// or the collector's timing: a search that asks Fits at fixed points of
// its work stops at the same point every time. Overrun is its safety
// net.
func (m *Memory) Fits(held, need uint64) error {
	if m == nil || held+need <= m.Allowance() {
		return nil
	}
	return &Exceeded{Limit: m.limit, Heap: held, Need: need}
}

// Overrun returns an *Exceeded when the heap's live objects pass the
// limit by more than an eighth: a safety net for an engine that counts
// its own bytes with Fits, against what its accounting misses (the
// reserve too small for what it does not count). Garbage does not count:
// a heap an eighth over the limit, garbage included, is collected and
// measured again, and refused if it is still over. The margin keeps what
// other goroutines allocate while the collection runs from deciding.
// (Under the runtime's memory limit, which the command line sets to the
// budget, the heap stays within the limit unless its live objects do
// not.)
func (m *Memory) Overrun() error {
	if m == nil || Heap() <= m.limit+m.limit/8 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	runtime.GC()
	heap := Heap()
	m.collected, m.forced = heap, true
	if heap > m.limit+m.limit/8 {
		return &Exceeded{Limit: m.limit, Heap: heap}
	}
	return nil
}

// heapMetric is the bytes of the heap's objects, live or not yet freed.
const heapMetric = "/memory/classes/heap/objects:bytes"

// Heap returns the bytes the heap's objects occupy, as runtime/metrics
// reports them (garbage not yet collected included).
func Heap() uint64 {
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// DefaultFraction is the part of the machine's memory (or its cgroup's,
// when that is less) a check may use by default: the Go runtime needs
// room besides its live heap, and so do the other processes.
const DefaultFraction = 0.7

// Default returns the default limit: DefaultFraction of the memory
// available to the process, and where that figure comes from (the cgroup
// limit or the machine's total). ok is false when neither can be read.
func Default() (limit uint64, source string, ok bool) {
	total, okTotal := memTotal()
	cg, path, okCgroup := cgroupLimit()
	switch {
	case okCgroup && (!okTotal || cg < total):
		return uint64(float64(cg) * DefaultFraction), "the cgroup limit in " + path, true
	case okTotal:
		return uint64(float64(total) * DefaultFraction), "the machine's memory (/proc/meminfo)", true
	}
	return 0, "", false
}

// memTotal reads MemTotal from /proc/meminfo.
func memTotal() (uint64, bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// unlimited is where a cgroup's limit means no limit (cgroup v1 writes
// the largest page-aligned int64).
const unlimited = 1 << 60

// cgroupLimit reads the memory limit of the process's cgroup: cgroup v2's
// memory.max, or v1's memory.limit_in_bytes, in its own group and then at
// the root of the hierarchy.
func cgroupLimit() (uint64, string, bool) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, "", false
	}
	var candidates []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			candidates = append(candidates, filepath.Join("/sys/fs/cgroup", parts[2], "memory.max"))
		case hasController(parts[1], "memory"):
			candidates = append(candidates,
				filepath.Join("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"),
				"/sys/fs/cgroup/memory/memory.limit_in_bytes")
		}
	}
	for _, path := range candidates {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(string(raw)), 10, 64)
		if err != nil || v >= unlimited {
			continue // "max", or no limit
		}
		return v, path, true
	}
	return 0, "", false
}

// hasController reports whether the comma-separated list of controllers holds c.
func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// Size renders a number of bytes with a binary unit: "512 B", "1.5 KiB",
// "16 GiB".
func Size(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + string("KMGTP"[exp]) + "iB"
}

// ParseSize reads a size: a number with an optional unit, B, K, KB, KiB,
// M, MB, MiB, G, GB, GiB, T, TB or TiB (all binary: 1 GB is 2^30 bytes),
// case-insensitive, as "16GiB", "512m" or "2.5G".
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("size %q: want a number and a unit, as 16GiB or 512MiB", s)
	}
	shift := 0
	switch strings.ToLower(unit) {
	case "", "b":
	case "k", "kb", "kib":
		shift = 10
	case "m", "mb", "mib":
		shift = 20
	case "g", "gb", "gib":
		shift = 30
	case "t", "tb", "tib":
		shift = 40
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (B, KiB, MiB, GiB or TiB)", s, unit)
	}
	bytes := v * float64(uint64(1)<<shift)
	if bytes >= 1<<63 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return uint64(bytes), nil
}
