// Package cli is ringcheck's command line: the commands, their flags and
// help, what they print and their exit statuses. Main runs it as a
// program; a Go module that defines its own specs with model.Builder runs
// the whole command line over them with cli.Main(mySpec()).
//
// Exit status: 0 every checked property holds and the search was complete;
// 1 a property is violated; 2 bad usage, unknown spec or bad parameter;
// 3 a bound was reached, or the run was interrupted (SIGINT, SIGTERM), with
// no violation found.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/specs"
)

// Exit statuses of the CLI contract.
const (
	exitOK       = 0
	exitViolated = 1
	exitUsage    = 2
	exitUnknown  = 3
)

// exitError carries an exit status out of a command's RunE. A nil err
// means the command already reported everything on stdout.
type exitError struct {
	code int
	err  error
	// plain: print err as it is, without the "ringcheck: " prefix (the
	// file:line:col: message lines of a source file's problems).
	plain bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// Options are what a program that embeds ringcheck's command line adds
// to it.
type Options struct {
	// Extra are specs besides the built-in ones; one whose name is a
	// built-in spec's is refused.
	Extra []*specs.Spec
	// Code is Go generated from instances of specs (ringcheck gen): an
	// instance of a built-in spec or of a .ring file that one of them was
	// generated from runs on it, every other instance on the compiled
	// closures.
	Code []*compile.Code
}

// Main runs the command line of os.Args over the built-in specs and
// extra, and exits with its status. An extra spec whose name is a
// built-in spec's is refused.
func Main(extra ...*specs.Spec) { MainWith(Options{Extra: extra}) }

// MainWith is Main with the additions of opts.
func MainWith(opts Options) {
	// SIGTERM, which CI runners and Kubernetes send, stops a command as
	// Ctrl-C (SIGINT) does. The first one stops the search, which still
	// reports what it found; a second one, with the default handlers
	// restored, kills the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	code := RunWith(ctx, os.Args[1:], os.Stdout, os.Stderr, opts)
	stop()
	os.Exit(code)
}

// Run executes the command line args over the built-in specs and extra,
// writing to stdout and stderr, and returns the exit status.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, extra ...*specs.Spec) int {
	return RunWith(ctx, args, stdout, stderr, Options{Extra: extra})
}

// RunWith is Run with the additions of opts.
func RunWith(ctx context.Context, args []string, stdout, stderr io.Writer, opts Options) int {
	reg, err := registry(opts.Extra, opts.Code)
	if err != nil {
		fmt.Fprintf(stderr, "ringcheck: %v\n", err)
		return exitUsage
	}
	return run(withCode(withRegistry(ctx, reg), opts.Code), args, stdout, stderr)
}

// run executes the command line args and returns the exit status. Every
// error becomes one line on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		switch {
		case ee.err != nil && ee.plain:
			fmt.Fprintf(stderr, "%v\n", ee.err)
		case ee.err != nil:
			fmt.Fprintf(stderr, "ringcheck: %v\n", ee.err)
		}
		return ee.code
	}
	// Cobra's own errors: unknown command or flag, wrong number of args.
	fmt.Fprintf(stderr, "ringcheck: %v\n", err)
	return exitUsage
}
