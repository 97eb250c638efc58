// Package lang loads specs written in the ring language (.ring files): it
// parses a file (package lang/syntax), and returns a catalogue entry whose
// Build checks the file for the parameters given (package lang/check) and
// compiles the instance into a model (package lang/compile). The language
// is described in docs/language.md.
package lang

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ringcheck/ringcheck/internal/input"
	"github.com/ringcheck/ringcheck/lang/check"
	"github.com/ringcheck/ringcheck/lang/compile"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs"
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
	// Path is the path it was read from; Hash the SHA-256 of its content,
	// in hex.
	Path, Hash string
	ast        *syntax.File
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

// Parse parses src as the file path.
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

// Build checks and compiles the instance for the parameter values given.
func (f *File) Build(values map[string]int) (*model.System, error) {
	inst, err := f.Instance(values)
	if err != nil {
		return nil, err
	}
	return compile.System(inst)
}

// Spec returns the file's catalogue entry, checked for its default
// parameters: its name, parameters, predicates' descriptions, default
// checks and claims, and a Build that compiles any instance.
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
		s.Claims = append(s.Claims, specs.Claim{Property: c.Property, Verdict: c.Verdict, Params: c.Params, From: c.From, Fairness: c.Fairness, Source: c.Source, Found: c.Found})
	}
	return s, nil
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

// Vet checks the file as a check would before any search: for its default
// parameters and for the parameters of each of its claims, it resolves and
// types every declaration and builds the model, including the initial
// configuration. It returns every problem found, each as file:line:col:
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
