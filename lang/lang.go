// Package lang loads specs written in the ring language (.ring files): it
// parses a file (package lang/syntax), and returns a catalogue entry whose
// Build checks the file for the parameters given (package lang/check) and
// compiles the instance into a model (package lang/compile). The language
// is described in docs/language.md.
package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ringcheck/ringcheck/internal/input"
	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/replay"
	"github.com/ringcheck/ringcheck/reports"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/symbolic"
)

// Ext is the extension of ring-language files.
const Ext = ".ring"

// MaxFileBytes is the largest .ring file Read reads: 16 MiB, over a
// thousand times the largest spec the project ships.
const MaxFileBytes = 16 << 20

// IsPath reports whether a spec argument names a file rather than a
// built-in spec: it ends in .ring or contains a path separator.
func IsPath(arg string) bool {
	return strings.HasSuffix(arg, Ext) || strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, os.PathSeparator)
}

// File is a loaded .ring file.
type File struct {
	// Path is the path it was read from, as its problems name it; Hash
	// the SHA-256 of its content, in hex.
	Path, Hash string
	ast        *syntax.File
	// fsys, when not nil, is the file system the file is name in: its
	// claims' start files are read from there. Otherwise they are read
	// from the operating system's, next to Path.
	fsys fs.FS
	name string
	// codes are Go generated from instances of specs (package
	// lang/gogen): Build runs an instance on the one generated from it.
	codes []*compile.Code
}

// WithCode makes Build run an instance of the file on the code among
// codes generated from that instance (compile.Fingerprint), and every
// other instance on the compiled closures; it returns f.
func (f *File) WithCode(codes ...*compile.Code) *File {
	f.codes = codes
	return f
}

// codeFor returns the code generated from inst, or nil.
func (f *File) codeFor(inst *ir.Spec) *compile.Code {
	if len(f.codes) == 0 {
		return nil
	}
	id := compile.Fingerprint(inst)
	for _, c := range f.codes {
		if c != nil && c.Instance == id {
			return c
		}
	}
	return nil
}

// Read parses the file at path; a file larger than MaxFileBytes (or one
// that never ends) is an error naming it and the bound.
func Read(path string) (*File, error) {
	src, err := input.ReadFile(path, MaxFileBytes, "a .ring file")
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// ReadFS parses the file name of fsys (a path as fs.FS takes it), with
// the bound of Read; its problems name it as path (file:line:col), and
// its claims' start files are read from fsys, next to name.
func ReadFS(fsys fs.FS, name, path string) (*File, error) {
	r, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	src, err := input.ReadAll(r, path, MaxFileBytes, "a .ring file")
	if err != nil {
		return nil, err
	}
	f, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	f.fsys, f.name = fsys, name
	return f, nil
}

// Parse parses src as the file path; its claims' start files are read
// next to path.
func Parse(path string, src []byte) (*File, error) {
	ast, err := syntax.Parse(path, src)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(src)
	return &File{Path: path, Hash: hex.EncodeToString(sum[:]), ast: ast}, nil
}

// Instance checks the file for the parameter values given (defaults for
// the rest) and returns the instance's intermediate representation.
func (f *File) Instance(values map[string]int) (*ir.Spec, error) {
	return check.Check(f.ast, values)
}

// Build checks and compiles the instance for the parameter values given,
// on the Go generated from it when WithCode gave it.
// A system with a legitimacy predicate derives the enumerator of its
// legitimate configurations from the predicate's BDD when closure needs
// one (symbolic.LegitimateConfigurations).
func (f *File) Build(values map[string]int) (*model.System, error) {
	inst, err := f.Instance(values)
	if err != nil {
		return nil, err
	}
	var sys *model.System
	if code := f.codeFor(inst); code != nil {
		if sys, err = compile.SystemWith(inst, code); err == nil {
			sys.Generated = true
		}
	} else {
		sys, err = compile.System(inst)
	}
	if err != nil {
		return nil, err
	}
	if inst.Legitimate != nil {
		sys.DeriveLegitimateConfigurations = symbolic.LegitimateConfigurations(inst)
	}
	return sys, nil
}

// Spec returns the file's catalogue entry, checked for its default
// parameters: its name, parameters, predicates' descriptions, default
// checks, claims (a claim's start file read when its Start is called),
// the paper's bound and reliable links, and a Build that compiles any
// instance.
func (f *File) Spec() (*specs.Spec, error) {
	inst, err := f.Instance(nil)
	if err != nil {
		return nil, err
	}
	s := &specs.Spec{
		Name:          inst.Name,
		Summary:       inst.Summary,
		Source:        inst.Source,
		File:          f.Path,
		FileHash:      f.Hash,
		Communication: "state-reading",
		DefaultChecks: inst.Checks,
		Build:         func(p specs.Values) (*model.System, error) { return f.Build(p) },
		Instance:      func(p specs.Values) (*ir.Spec, error) { return f.Instance(p) },
	}
	if inst.Channels != nil {
		s.Communication = "message-passing"
	}
	for _, p := range inst.Params {
		s.Params = append(s.Params, specs.Param{Name: p.Name, Default: p.Default, Min: p.Min, Max: p.Max, Doc: p.Doc})
	}
	if inst.Legitimate != nil {
		s.Legitimacy = inst.Legitimate.Doc
		if s.Legitimacy == "" {
			s.Legitimacy = "as the file's legitimate predicate says"
		}
	}
	for _, inv := range inst.Invariants {
		text := inv.Name
		if inv.Doc != "" {
			text += ": " + inv.Doc
		}
		s.Invariants = append(s.Invariants, text)
	}
	if len(s.DefaultChecks) == 0 {
		s.DefaultChecks = []string{"safety", "deadlock"}
	}
	for _, c := range inst.Claims {
		cl := specs.Claim{Property: c.Property, Verdict: c.Verdict, Params: c.Params, From: c.From, Fairness: c.Fairness, Source: c.Source, Found: c.Found}
		if c.StartFile != "" {
			cl.Start = f.claimStart(s, c)
		}
		s.Claims = append(s.Claims, cl)
	}
	if b := inst.Bound; b != nil {
		s.StabilizationBound = b.Text
		if b.Rounds > 0 {
			s.RoundsBound = f.roundsBound
		}
	}
	if inst.Links != nil {
		s.Links = &specs.ReliableLinks{Enlarge: f.enlarge, Fill: f.fill}
	}
	return s, nil
}

// roundsBound is the bound in rounds of the instance p; 0 for an
// instance that does not check (whose Build says why).
func (f *File) roundsBound(p specs.Values) int {
	inst, err := f.Instance(p)
	if err != nil || inst.Bound == nil {
		return 0
	}
	return inst.Bound.Rounds
}

// enlarge is the parameters the links declaration enlarges, with their
// values for the instance p; none for an instance that does not check,
// so that the instance run is p itself, whose Build says why.
func (f *File) enlarge(p specs.Values) specs.Values {
	inst, err := f.Instance(p)
	if err != nil || inst.Links == nil {
		return nil
	}
	return maps.Clone(inst.Links.Enlarge)
}

// fill is the links declaration's fill for the instance p (0 for an
// instance that does not check, whose Build says why).
func (f *File) fill(p specs.Values) int {
	inst, err := f.Instance(p)
	if err != nil || inst.Links == nil {
		return 0
	}
	return inst.Links.Fill
}

// claimStart returns the Start of the claim c of spec s: the first
// configuration of c's start file, read (within reports.MaxTraceBytes)
// from where the .ring file came from. Its errors are the claim's, at the
// start file's place in the .ring file (file:line:col: message).
func (f *File) claimStart(s *specs.Spec, c ir.Claim) func(*model.System) (*model.State, error) {
	return func(sys *model.System) (*model.State, error) {
		st, err := f.startConfiguration(s, c, sys)
		if err != nil {
			return nil, &syntax.Error{File: f.Path, Pos: c.StartPos, Msg: fmt.Sprintf("claim %s %s from %q: %v", c.Property, c.Verdict, c.StartFile, err)}
		}
		return st, nil
	}
}

// startConfiguration reads c's start file, a trace of s for the claim's
// parameters on the spec's own links, replays it against the file (as
// check --start does a trace it reads, but whatever version of the file
// wrote it: the file that holds the claim changes with it) and encodes
// its first configuration in sys.
func (f *File) startConfiguration(s *specs.Spec, c ir.Claim, sys *model.System) (*model.State, error) {
	data, where, err := f.readBeside(c.StartFile, reports.MaxTraceBytes, "a trace")
	if err != nil {
		return nil, err
	}
	t, err := reports.ReadTrace(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	switch {
	case t.Spec != s.Name:
		return nil, fmt.Errorf("%s is a trace of %s, not of %s", where, t.Spec, s.Name)
	case t.Links == reports.ReliableLinks:
		return nil, fmt.Errorf("%s ran on the spec's reliable links; a claim is decided on the spec's own", where)
	}
	want, err := s.Resolve(c.Params)
	if err != nil {
		return nil, err
	}
	got, err := s.Resolve(t.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if !maps.Equal(got, want) {
		return nil, fmt.Errorf("%s has parameters %s, but the claim has %s", where, got, want)
	}
	tsys, err := f.Build(got)
	if err != nil {
		return nil, err
	}
	if t.Daemon != "" {
		d, err := model.ParseDaemon(t.Daemon)
		if err != nil {
			return nil, fmt.Errorf("%s: the trace's daemon: %w", where, err)
		}
		if tsys, err = tsys.WithDaemon(d); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	if t.Overflow != "" {
		o, err := model.ParseOverflow(t.Overflow)
		if err != nil {
			return nil, fmt.Errorf("%s: the trace's overflow: %w", where, err)
		}
		if tsys, err = tsys.WithOverflow(o); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	if err := replay.Check(tsys, t); err != nil {
		return nil, fmt.Errorf("%s does not replay: %w", where, err)
	}
	st, err := t.Configuration(sys, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return st, nil
}

// readBeside reads rel, a '/'-separated path relative to the .ring
// file's folder, from where the file came from (its fs.FS, or the
// operating system's), at most limit bytes of what; where is the path
// its errors name.
func (f *File) readBeside(rel string, limit int64, what string) (data []byte, where string, err error) {
	if f.fsys == nil {
		where = filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(rel))
		data, err = input.ReadFile(where, limit, what)
		return data, where, err
	}
	where = path.Join(path.Dir(filepath.ToSlash(f.Path)), rel)
	r, err := f.fsys.Open(path.Join(path.Dir(f.name), rel))
	if err != nil {
		// The path in the message is where, as for the .ring file.
		if pe, ok := err.(*fs.PathError); ok {
			pe.Path = where
		}
		return nil, where, err
	}
	defer r.Close()
	data, err = input.ReadAll(r, where, limit, what)
	return data, where, err
}

// Load reads the .ring file at path and returns its catalogue entry.
func Load(path string) (*specs.Spec, *File, error) {
	f, err := Read(path)
	if err != nil {
		return nil, nil, err
	}
	s, err := f.Spec()
	if err != nil {
		return nil, nil, err
	}
	return s, f, nil
}

// LoadFS is Load on the file name of fsys, named path in its problems
// (see ReadFS).
func LoadFS(fsys fs.FS, name, path string) (*specs.Spec, *File, error) {
	f, err := ReadFS(fsys, name, path)
	if err != nil {
		return nil, nil, err
	}
	s, err := f.Spec()
	if err != nil {
		return nil, nil, err
	}
	return s, f, nil
}

// Vet checks the file as a check would before any search: for its default
// parameters and for the parameters of each of its claims, it resolves and
// types every declaration and builds the model, including the initial
// configuration; then it reads and replays each claim's start file. It
// returns every problem found, each as file:line:col:
// message where the problem has a place in the file.
func Vet(path string) error {
	f, err := Read(path)
	if err != nil {
		return err
	}
	inst, err := f.Instance(nil)
	if err != nil {
		return err
	}
	instances := []map[string]int{nil}
	for _, c := range inst.Claims {
		instances = append(instances, c.Params)
	}
	var errs []error
	for _, values := range instances {
		if _, err := f.Build(values); err != nil {
			errs = append(errs, inInstance(path, values, err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// Each start file, read and replayed as the claim's Start does.
	spec, err := f.Spec()
	if err != nil {
		return err
	}
	for _, c := range spec.Claims {
		if c.Start == nil {
			continue
		}
		values, err := spec.Resolve(c.Params)
		if err == nil {
			var sys *model.System
			if sys, err = spec.Build(values); err == nil {
				_, err = c.Start(sys)
			}
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// inInstance says which file and instance err is about: "path with
// n=3: ..." for a claim's, and for the default instance nothing more than
// the file's name (omitted when err's message, file:line:col: ...,
// starts with it).
func inInstance(path string, values map[string]int, err error) error {
	switch {
	case len(values) > 0:
		return fmt.Errorf("%s with %s: %w", path, specs.Values(values), err)
	case strings.HasPrefix(err.Error(), path+":"):
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
