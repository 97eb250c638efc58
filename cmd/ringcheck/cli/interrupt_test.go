package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptManifest has a case done in milliseconds, a case that takes
// minutes (kl-ddhl n=4 from init: far more states than a run of a second
// reaches) and a case after it; each case expects what it would find, so
// that an interrupted run reporting PASS for the unfinished cases would
// pass the gate.
const interruptManifest = `cases:
  - name: quick
    spec: dijkstra
    params: {n: 3, K: 3}
    expect: {safety: holds}
  - name: long
    spec: kl-ddhl
    params: {n: 4}
    max_states: 1000000000
    expect: {safety: unknown}
  - name: after
    spec: dijkstra
    params: {n: 3, K: 3}
    max_states: 2
    expect: {safety: unknown}
`

// checkInterruptedRegress checks what an interrupted regress reports: the
// quick case PASS, the others NOT RUN (never PASS) with why, the table
// saying so, and the JUnit report skipping them with a message.
func checkInterruptedRegress(t *testing.T, stdout, junitPath, why string) {
	t.Helper()
	for _, want := range []string{
		`(?m)^quick +safety holds→holds .* PASS$`,
		`(?m)^long +safety unknown→not run .* NOT RUN$`,
		`(?m)^after +safety unknown→not run .* NOT RUN$`,
		`(?m)^NOT RUN long: not finished: regress was interrupted \(` + regexp.QuoteMeta(why) + `\)$`,
		`(?m)^NOT RUN after: not started: regress was interrupted \(` + regexp.QuoteMeta(why) + `\)$`,
		`(?m)^2 of 3 cases not run$`,
	} {
		if !regexp.MustCompile(want).MatchString(stdout) {
			t.Errorf("no match for %s in the table:\n%s", want, stdout)
		}
	}
	if regexp.MustCompile(`(?m)^(long|after) .*PASS$`).MatchString(stdout) {
		t.Errorf("an unfinished case passes:\n%s", stdout)
	}
	data, err := os.ReadFile(junitPath)
	if err != nil {
		t.Fatal(err)
	}
	junit := string(data)
	for _, want := range []string{
		`<testsuite name="ringcheck regress" tests="3" failures="0" errors="0" id="0" skipped="2"`,
		`<property name="interrupted" value="2 of 3 cases not run"></property>`,
		`<testcase name="quick: safety" classname="dijkstra"`,
		`<skipped message="NOT RUN long: not finished: regress was interrupted (` + why + `)"></skipped>`,
		`<skipped message="NOT RUN after: not started: regress was interrupted (` + why + `)"></skipped>`,
	} {
		if !strings.Contains(junit, want) {
			t.Errorf("no %s in the JUnit report:\n%s", want, junit)
		}
	}
}

// TestRegressInterrupted: a regress whose context is cancelled mid-run
// exits 3, marks the cases that had not finished NOT RUN, and says it was
// interrupted in the table and in the JUnit report.
func TestRegressInterrupted(t *testing.T) {
	dir := t.TempDir()
	manifest, junit := filepath.Join(dir, "m.yaml"), filepath.Join(dir, "out.xml")
	if err := os.WriteFile(manifest, []byte(interruptManifest), 0o666); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	timer := time.AfterFunc(1500*time.Millisecond, func() { cancel(errors.New("the test stopped it")) })
	defer timer.Stop()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"regress", manifest, "--workers", "1", "--junit", junit}, &stdout, &stderr)
	if code != exitUnknown {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitUnknown, stderr.String())
	}
	checkInterruptedRegress(t, stdout.String(), junit, "the test stopped it")
}

// buildRingcheck builds the ringcheck command into a temporary folder.
func buildRingcheck(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot build ringcheck")
	}
	bin := filepath.Join(t.TempDir(), "ringcheck")
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/ringcheck/ringcheck/cmd/ringcheck").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// exitCode is the exit status of a command that ran, err its Wait's.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestSignalsStopCommands: SIGTERM, which CI runners and Kubernetes send,
// stops a command as Ctrl-C (SIGINT) does: a check reports what it found,
// every verdict not violated unknown, exit 3; a regress marks its
// unfinished cases NOT RUN and exits 3.
func TestSignalsStopCommands(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no SIGTERM to send here")
	}
	if testing.Short() {
		t.Skip("-short: not building ringcheck")
	}
	bin := buildRingcheck(t)

	t.Run("check", func(t *testing.T) {
		var stdout bytes.Buffer
		cmd := exec.Command(bin, "check", "kl-ddhl", "-p", "n=4", "--check", "safety", "--progress")
		cmd.Stdout = &stdout
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The first line (the memory budget) is printed as the search
		// starts, after the signals are handled.
		lines := bufio.NewScanner(stderr)
		if !lines.Scan() {
			t.Fatalf("no line on stderr: %v", lines.Err())
		}
		time.Sleep(200 * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		for lines.Scan() {
		}
		if code := exitCode(t, cmd.Wait()); code != exitUnknown {
			t.Errorf("exit status %d, want %d; stdout:\n%s", code, exitUnknown, stdout.String())
		}
		for _, want := range []string{
			`(?m)^  \d+ states, \d+ transitions, depth \d+: INCOMPLETE, interrupted$`,
			`(?m)^  safety       unknown   interrupted$`,
		} {
			if !regexp.MustCompile(want).MatchString(stdout.String()) {
				t.Errorf("no match for %s in the report:\n%s", want, stdout.String())
			}
		}
	})

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run("regress "+sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			manifest, junit := filepath.Join(dir, "m.yaml"), filepath.Join(dir, "out.xml")
			if err := os.WriteFile(manifest, []byte(interruptManifest), 0o666); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, "regress", manifest, "--workers", "1", "--junit", junit)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			if code := exitCode(t, cmd.Wait()); code != exitUnknown {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitUnknown, stderr.String())
			}
			checkInterruptedRegress(t, stdout.String(), junit, sig.String()+" signal received")
		})
	}
}
