package main

import (
	"path/filepath"

	"github.com/ringcheck/ringcheck/lang"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/specs"
	"github.com/ringcheck/ringcheck/specs/catalog"
)

// findSpec resolves a SPEC argument: the path of a .ring file (relative
// to dir, when dir is given and the path is relative), or the name of a
// built-in spec. A file that does not parse or check is a usage error
// whose lines are the file's problems, as file:line:col: message.
func findSpec(arg, dir string) (*specs.Spec, error) {
	if lang.IsPath(arg) {
		path := arg
		if dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		spec, _, err := lang.Load(path)
		if _, inFile := syntax.AsError(err); inFile {
			return nil, sourceError(err)
		}
		if err != nil {
			return nil, usageError("%v", err)
		}
		return spec, nil
	}
	reg, err := catalog.Registry()
	if err != nil {
		return nil, err
	}
	spec, err := reg.Lookup(arg)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return spec, nil
}

// sourceError is a usage error about a source file, printed as it is: one
// file:line:col: message line per problem, the form editors jump to.
func sourceError(err error) error {
	return &exitError{code: exitUsage, err: err, plain: true}
}
