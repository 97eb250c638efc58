package cli

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ringcheck/ringcheck/cluster/natsnet"
)

// TestProcsLostWorker kills one worker process of 'check --procs 2' with
// SIGKILL in the middle of a search: the check ends within 10 s with
// exit status 3 and a report that leaves every property unknown and names
// the worker lost, by its process id.
func TestProcsLostWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ringcheck and runs a search of seconds")
	}
	bin := buildRingcheck(t)
	cmd := exec.Command(bin, "check", "kl-pusher", "-p", "n=5", "-p", "L=5", "-p", "K=3", "--check", "safety,deadlock", "--procs", "2")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	workersLine := regexp.MustCompile(`^ringcheck: 2 workers at \S+: .* pid (\d+), .* pid (\d+)$`)
	var victim int
	var rest strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := workersLine.FindStringSubmatch(sc.Text()); m != nil {
			victim, _ = strconv.Atoi(m[2])
			break
		}
		rest.WriteString(sc.Text() + "\n")
	}
	if victim == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no line naming the workers; stderr:\n%s", rest.String())
	}
	go func() {
		for sc.Scan() {
		}
	}()
	time.Sleep(time.Second)
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 10s after a worker was killed; stdout:\n%s", stdout.String())
	}
	if code := exitCode(t, err); code != exitUnknown {
		t.Errorf("exit status %d, want %d", code, exitUnknown)
	}
	t.Logf("ended %s after the kill", time.Since(killed).Round(time.Millisecond))
	out := stdout.String()
	lost := regexp.MustCompile(`(?m)^  safety +unknown +worker \d \(.* pid ` + strconv.Itoa(victim) + `\) was lost: `)
	if !lost.MatchString(out) || strings.Contains(out, "holds") {
		t.Errorf("the report does not leave safety unknown naming pid %d:\n%s", victim, out)
	}
}

// BenchmarkProcs times kl-pusher (L=5 K=3) safety and deadlock on one
// process (--reduce none) and on --procs 4, through the built command,
// and reports each one's seconds, the one process's peak heap and the
// largest peak heap a worker's heartbeats reported (in MiB). n=5 is the
// measure of docs/performance.md (about a minute each on two cores):
//
//	go test ./cmd/ringcheck/cli -run '^$' -bench 'Procs/n=5' -benchtime 1x
func BenchmarkProcs(b *testing.B) {
	for _, n := range []string{"4", "5"} {
		b.Run("n="+n, func(b *testing.B) {
			bin := buildRingcheckTB(b)
			args := []string{"check", "kl-pusher", "-p", "n=" + n, "-p", "L=5", "-p", "K=3", "--check", "safety,deadlock", "--progress"}
			for range b.N {
				one, oneOut, _ := timedRun(b, bin, append(args, "--reduce", "none"))
				four, _, fourErr := timedRun(b, bin, append(args, "--procs", "4"))
				b.ReportMetric(one.Seconds(), "s-1proc")
				b.ReportMetric(four.Seconds(), "s-4procs")
				b.ReportMetric(mib(b, regexp.MustCompile(`peak heap ([\d.]+ [KMG]?i?B)`).FindAllStringSubmatch(oneOut, -1)), "MiB-1proc-peak")
				b.ReportMetric(mib(b, regexp.MustCompile(`\(peak ([\d.]+ [KMG]?i?B)\)`).FindAllStringSubmatch(fourErr, -1)), "MiB-worker-peak")
			}
		})
	}
}

// timedRun runs bin with args and returns how long it took, its stdout
// and its stderr; exit statuses 0, 1 and 3 are reports.
func timedRun(b *testing.B, bin string, args []string) (time.Duration, string, string) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if err != nil {
		if code := cmd.ProcessState.ExitCode(); code != 1 && code != 3 {
			b.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
	}
	return time.Since(start), stdout.String(), stderr.String()
}

// mib is the largest of the sizes matched (as budget.Size prints them),
// in MiB.
func mib(b *testing.B, ms [][]string) float64 {
	var most float64
	for _, m := range ms {
		f := strings.Fields(m[1])
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			b.Fatal(err)
		}
		switch f[1] {
		case "KiB":
			v /= 1024
		case "GiB":
			v *= 1024
		case "B":
			v /= 1 << 20
		}
		most = max(most, v)
	}
	return most
}

// buildRingcheckTB builds the ringcheck command into a temporary folder.
func buildRingcheckTB(tb testing.TB) string {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Skip("the go command is not on PATH: cannot build ringcheck")
	}
	bin := filepath.Join(tb.TempDir(), "ringcheck")
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/ringcheck/ringcheck/cmd/ringcheck").CombinedOutput()
	if err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestClusterWorkers runs 'check --cluster URL --cluster-workers 2' on two
// 'ringcheck worker' processes started on their own at a server of the
// test's: the report is the one process's.
func TestClusterWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ringcheck")
	}
	bin := buildRingcheck(t)
	srv, url, err := natsnet.StartServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	for k := range 2 {
		w := exec.Command(bin, "worker", "--cluster", url, "--once", "--name", "w"+strconv.Itoa(k))
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() {
			w.Process.Kill()
			w.Wait()
		}()
	}
	args := []string{"check", "kl-naive", "-p", "n=4", "-p", "L=4", "-p", "K=2", "--check", "safety,deadlock"}
	want, err := exec.Command(bin, append(args, "--reduce", "none")...).Output()
	if exitCode(t, err) != exitViolated {
		t.Fatalf("one process: %v", err)
	}
	cmd := exec.Command(bin, append(args, "--cluster", url, "--cluster-workers", "2")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if exitCode(t, err) != exitViolated {
		t.Fatalf("on the workers: %v\n%s", err, stderr.String())
	}
	if g, w := untime(string(got)), untime(string(want)); g != w {
		t.Errorf("on the workers:\n%s\none process:\n%s", g, w)
	}
	if !regexp.MustCompile(`(?m)^ringcheck: 2 workers at ` + regexp.QuoteMeta(url) + `: w[01], w[01]$`).MatchString(stderr.String()) {
		t.Errorf("no line naming the workers in\n%s", stderr.String())
	}
}
