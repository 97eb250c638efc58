package budget

import (
	"errors"
	"runtime"
	"testing"
)

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"0", 0}, {"512", 512}, {"512B", 512}, {"1k", 1 << 10}, {"1.5KiB", 1536},
		{"16GiB", 16 << 30}, {"16 gb", 16 << 30}, {"2.5G", 5 << 29}, {"512m", 512 << 20}, {"1TiB", 1 << 40},
	} {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1G", "12 parsecs", "1e30", "1..2M"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	for _, tc := range []struct {
		n    uint64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {16 << 30, "16 GiB"}, {3 << 40, "3 TiB"}} {
		if got := Size(tc.n); got != tc.want {
			t.Errorf("Size(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestGrow(t *testing.T) {
	var none *Memory
	if err := none.Grow(1 << 62); err != nil || none.Limit() != 0 {
		t.Fatalf("a nil budget refused: %v", err)
	}
	base := Heap()
	m := New(base + 64<<20)
	if err := m.Grow(1 << 20); err != nil {
		t.Fatalf("1 MiB within a budget 64 MiB above the heap: %v", err)
	}
	err := m.Grow(1 << 30)
	var ex *Exceeded
	if !errors.As(err, &ex) || ex.Need != 1<<30 || ex.Limit != base+64<<20 || ex.Heap == 0 {
		t.Fatalf("1 GiB over a budget 64 MiB above the heap: %v", err)
	}
	// Garbage does not count: a collection frees it before refusing.
	for range 8 {
		junk := make([]byte, 16<<20)
		junk[0] = 1
	}
	if err := m.Check(); err != nil {
		t.Fatalf("128 MiB of garbage counted against the budget: %v", err)
	}
}

func TestDefault(t *testing.T) {
	limit, source, ok := Default()
	if !ok {
		t.Skip("neither /proc/meminfo nor a cgroup limit is readable here")
	}
	total, okTotal := memTotal()
	if limit == 0 || source == "" || okTotal && limit > total {
		t.Fatalf("Default() = %d from %q, machine %d", limit, source, total)
	}
}

func TestFits(t *testing.T) {
	var none *Memory
	if err := none.Fits(1<<62, 1<<62); err != nil || none.Allowance() != 0 {
		t.Fatalf("a nil budget refused: %v", err)
	}
	m := New(64 << 20) // a reserve of 4 MiB and 2 MiB
	if m.Reserve() != 6<<20 || m.Allowance() != 58<<20 {
		t.Fatalf("reserve %d, allowance %d", m.Reserve(), m.Allowance())
	}
	// Whatever the heap holds meanwhile, the answer is the count's.
	junk := make([]byte, 128<<20)
	junk[0] = 1
	if err := m.Fits(50<<20, 8<<20); err != nil {
		t.Fatalf("58 MiB in an allowance of 58 MiB: %v", err)
	}
	err := m.Fits(50<<20, 8<<20+1)
	var ex *Exceeded
	if !errors.As(err, &ex) || ex.Heap != 50<<20 || ex.Need != 8<<20+1 || ex.Limit != 64<<20 {
		t.Fatalf("a byte past the allowance: %v", err)
	}
	if New(1).Allowance() != 0 {
		t.Fatalf("a budget smaller than its reserve allows %d", New(1).Allowance())
	}
	runtime.KeepAlive(junk)
}

func TestOverrunIgnoresGarbage(t *testing.T) {
	runtime.GC()
	m := New(Heap() + 32<<20)
	for range 8 {
		junk := make([]byte, 16<<20)
		junk[0] = 1
	}
	if err := m.Overrun(); err != nil {
		t.Fatalf("128 MiB of garbage counted as live: %v", err)
	}
	live := make([]byte, 64<<20)
	live[0] = 1
	if err := m.Overrun(); err == nil {
		t.Fatal("64 MiB live over a budget 32 MiB above the heap: no overrun")
	}
	runtime.KeepAlive(live)
}
