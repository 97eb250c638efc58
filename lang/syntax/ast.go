package syntax

// File is a parsed .ring file: its declarations in source order.
type File struct {
	Name  string // the path it was read from, for messages
	Decls []Decl
}

// Decl is a top-level declaration.
type Decl interface{ declPos() Pos }

// Expr is an expression.
type Expr interface{ ExprPos() Pos }

// SpecDecl is `spec NAME ["summary"]`.
type SpecDecl struct {
	Pos     Pos
	Name    *Ident
	Summary string
}

// SourceDecl is `source "citation"`.
type SourceDecl struct {
	Pos  Pos
	Text string
}

// ParamDecl is `param NAME = DEFAULT in LO..HI ["doc"]`.
type ParamDecl struct {
	Pos     Pos
	Name    *Ident
	Default Expr
	Lo, Hi  Expr
	Doc     string
}

// ConstDecl is `const NAME = EXPR`: a derived constant.
type ConstDecl struct {
	Pos   Pos
	Name  *Ident
	Value Expr
}

// RequireDecl is `require COND ["message"]`: a condition on the
// parameters every instance must meet.
type RequireDecl struct {
	Pos  Pos
	Cond Expr
	Msg  string
}

// TopologyDecl is `topology ring(N)`, `topology biring(N)`, `topology
// complete(N)` or `topology line(N)`.
type TopologyDecl struct {
	Pos  Pos
	Kind *Ident
	N    Expr
}

// EnumDecl is `type NAME = {A, B, C}`.
type EnumDecl struct {
	Pos    Pos
	Name   *Ident
	Values []*Ident
}

// Type is a variable's or a message field's type: `bool`, an enumeration's
// name, or a range `LO..HI`.
type Type struct {
	Pos    Pos
	Name   *Ident // bool or an enumeration (nil for a range)
	Lo, Hi Expr
}

// VarDecl is `var NAME[INDEX] : TYPE [= INIT] ["doc"]`, at the top level
// (every process) or in a process block (those processes).
type VarDecl struct {
	Pos  Pos
	Name *Ident
	// Index is the index set of an array (`var used[peers]: ...`,
	// `var q[0..2]: ...`); nil for a variable that holds one value.
	Index *Set
	// Index2 is the second index set of a two-dimensional array
	// (`var used[0..A-1][0..2]: ...`), or nil.
	Index2 *Set
	Type   *Type
	Init   Expr // nil: the type's first value
	Doc    string
}

// Set is what a name ranges over: `peers` (the processes linked to the
// acting process in either direction), `peers(P)` (to process P), a
// range `LO..HI` of integers, or, for a quantifier, `chan(P, Q)` (the
// messages in the channel from P to Q, head first) or `chan(M, P, Q)`
// (those of type M).
type Set struct {
	Pos   Pos
	Peers bool
	Of    Expr // peers(P): P; nil for the acting process's peers
	Lo    Expr // a range's bounds
	Hi    Expr
	// Chan is set for chan(...): the channel from From to To, and the
	// message type Msg (nil: every type).
	Chan     bool
	Msg      *Ident
	From, To Expr
	// Run is set for `run`, the messages a run receive took, which a
	// for loop in a sequential block ranges over.
	Run bool
}

// MessageDecl is `message NAME[(FIELD: TYPE, ...)]`.
type MessageDecl struct {
	Pos    Pos
	Name   *Ident
	Fields []*Field
}

// Field is a message field: one value, or, with Lo and Hi set, an array
// field `NAME[LO..HI]: TYPE`, one value per index, LO and HI constants
// over the parameters.
type Field struct {
	Name   *Ident
	Lo, Hi Expr
	Type   *Type
}

// ChannelsDecl is `channels capacity C [overflow block|drop|error]
// [carry M, ...]`: one FIFO channel along every link of the topology.
type ChannelsDecl struct {
	Pos      Pos
	Capacity Expr
	Overflow *Ident // nil: block
	// OverflowIf, when set, makes Overflow the policy where this constant
	// condition holds, and OverflowElse the policy where it does not.
	OverflowIf   Expr
	OverflowElse *Ident
	Carry        []*Ident
}

// ProcessDecl is `process SET [first_enabled] { ... }`: the variables,
// fixed values, actions and initial effects of the processes of SET (all,
// one process, or LO..HI; a range whose HI is below its LO is empty).
type ProcessDecl struct {
	Pos          Pos
	All          bool
	Lo, Hi       Expr // Hi nil: the single process Lo
	FirstEnabled bool
	Vars         []*VarDecl
	// Consts are `const NAME = EXPR` in the block: a value the block's
	// processes hold fixed, read as a variable of theirs.
	Consts  []*ConstDecl
	Actions []*ActionDecl
	Inits   []*InitDecl
}

// ActionDecl is `[environment|timeout] [atomic] [ROLE [if COND else
// ROLE]] action NAME[(K in LO..HI)] : GUARD -> EFFECTS`.
type ActionDecl struct {
	Pos         Pos
	Name        *Ident
	Environment bool
	Timeout     bool
	// Atomic marks an action that may assign its peers' variables: the
	// whole action is one step.
	Atomic *Ident
	Role   *Ident // finite or optional; nil: scheduled
	// RoleIf, when set, makes Role the role where this constant condition
	// holds, and RoleElse (finite, optional or scheduled) the role where
	// it does not.
	RoleIf   Expr
	RoleElse *Ident
	Choice   *Ident // the choice parameter, or nil
	ChoiceLo Expr
	ChoiceHi Expr
	// Peer, with `(J in peers)`, makes the declaration a family of
	// actions, one per peer J of the acting process.
	Peer    *Ident
	Recv    *Receive // nil: no message is received
	Guard   Expr     // nil: true (an action with only a receive)
	Effects []Stmt
}

// Receive is the head of a guard, `recv M[(a, b)] from Q`: the action is
// enabled only when the channel from Q holds a message of type M at its
// head, receives it, and binds its fields to a, b. With Any (`recv any
// [except M, ...] from Q`), Msg is nil and the head may be of any type
// but those of Except; no field is bound.
type Receive struct {
	Pos    Pos
	Msg    *Ident
	Fields []*Ident
	From   Expr
	Any    bool
	Except []*Ident
	// Run, with `recv run M, ... while FIELD from Q`, receives a run of
	// messages of the types Types chained by their field More (see
	// RunRecv); Msg is nil and no field is bound.
	Run   bool
	Types []*Ident
	More  *Ident
}

// InitDecl is `init: EFFECTS` in a process block: effects applied, for each
// process of the block, to the initial configuration.
type InitDecl struct {
	Pos     Pos
	Effects []Stmt
}

// Stmt is an effect.
type Stmt interface{ stmtPos() Pos }

// AssignStmt is `VAR := EXPR`, or `VAR[INDEX] := EXPR` for an entry of an
// array (`VAR[I][J] := EXPR` for a two-dimensional one).
type AssignStmt struct {
	Pos    Pos
	Var    *Ident
	Index  Expr // nil: not an array's entry
	Index2 Expr // the second subscript, or nil
	Value  Expr
}

// SendStmt is `send M[(args)] to Q`.
type SendStmt struct {
	Pos  Pos
	Msg  *Ident
	Args []Expr
	To   Expr
}

// IfStmt is `if COND { EFFECTS } [else { EFFECTS }]`.
type IfStmt struct {
	Pos  Pos
	Cond Expr
	Then []Stmt
	Else []Stmt
}

// RepeatStmt is `repeat COUNT { EFFECTS }`: the effects COUNT times (COUNT
// read before the step).
type RepeatStmt struct {
	Pos   Pos
	Count Expr
	Body  []Stmt
}

// ForStmt is `for NAME in SET { EFFECTS }`: the effects once for every
// member of SET, ascending.
type ForStmt struct {
	Pos  Pos
	Var  *Ident
	Over *Set
	Body []Stmt
}

// SkipStmt is `skip`: no effect.
type SkipStmt struct{ Pos Pos }

// DefDecl is `def NAME[(p, ...)] = EXPR`: a named expression, expanded
// where it is used.
type DefDecl struct {
	Pos    Pos
	Name   *Ident
	Params []*Ident
	Body   Expr
}

// PredicateDecl is one of
//
//	[abstraction] invariant NAME ["doc"] : EXPR
//	legitimate ["doc"] : EXPR
//	valid_end ["doc"] : EXPR
//	predicate NAME(p) ["doc"] : EXPR
//	start ["doc"] : EXPR
//	init ["doc"] : EXPR
//	closure from ["doc"] : EXPR
//
// Kind is the keyword ("closure from" for the last); Param is the process parameter of a per-process
// predicate; Abstraction marks an abstraction invariant.
type PredicateDecl struct {
	Pos         Pos
	Kind        string
	Name        *Ident // nil for legitimate, valid_end, start, init and closure from
	Param       *Ident
	Doc         string
	Body        Expr
	Abstraction bool
}

// ClaimDecl is `claim PROPERTY VERDICT [found VERDICT|out-of-reach]
// [from init|all|start|"FILE"] [fairness F] [with NAME = INT, ...]
// ["source"]`: a verdict the paper predicts.
type ClaimDecl struct {
	Pos      Pos
	Property *Ident
	Verdict  *Ident
	Found    *Ident // what ringcheck finds instead, or nil
	From     *Ident // nil: none, or a start file (StartFile)
	// StartFile, with StartPos its place, is `from "FILE"`: the claim is
	// about every configuration, and ringcheck decides it from the first
	// configuration of the trace FILE (a path relative to the .ring
	// file's folder); empty: none.
	StartFile string
	StartPos  Pos
	Fairness  *Ident
	Params    []*ParamValue
	Source    string
}

// BoundDecl is `bound "TEXT" [rounds EXPR]`: the paper's bound on
// stabilization time, as text, and in rounds as a constant expression
// over the parameters (nil: none).
type BoundDecl struct {
	Pos    Pos
	Text   string
	Rounds Expr
}

// LinksDecl is `links reliable [enlarge NAME = EXPR, ...] [fill EXPR]`:
// how `rounds` runs the spec on its paper's reliable links, the
// parameters raised to the values Enlarge gives and the random
// configurations holding at most Fill messages a channel (nil: the
// capacity of the spec's own channels).
type LinksDecl struct {
	Pos     Pos
	Kind    *Ident
	Enlarge []*ParamValue
	Fill    Expr
}

// ParamValue is `NAME = EXPR` in a claim or in a links declaration's
// enlarge.
type ParamValue struct {
	Name  *Ident
	Value Expr
}

// ChecksDecl is `check PROPERTY, ...`: the properties checked by default.
type ChecksDecl struct {
	Pos        Pos
	Properties []*Ident
}

// SymmetryDecl is `symmetry rotation [, reflection]`: the processes are
// interchangeable under the rotations of the ring (and its reflections),
// which the checker proves and the engines use to store one
// configuration per orbit.
type SymmetryDecl struct {
	Pos   Pos
	Kinds []*Ident
}

// Ident is a name.
type Ident struct {
	Pos  Pos
	Name string
}

// IntLit is an integer literal.
type IntLit struct {
	Pos   Pos
	Value int
}

// BoolLit is true or false.
type BoolLit struct {
	Pos   Pos
	Value bool
}

// IndexExpr is `VAR[PROC]`: process PROC's variable (PROC taken modulo
// n); for an array, `VAR[I]` is the acting process's entry I and
// `VAR[PROC][I]` process PROC's; for a two-dimensional array, `VAR[I][J]`
// is the acting process's entry and `VAR[PROC][I][J]` process PROC's.
type IndexExpr struct {
	Var   *Ident
	Index Expr
	Elem  Expr // the second subscript, or nil
	Elem2 Expr // the third subscript, or nil
}

// CallExpr is `NAME(ARGS)`: a def with parameters, a per-process
// predicate, or a built-in function.
type CallExpr struct {
	Fun  *Ident
	Args []Expr
}

// SelectorExpr is `X.FIELD`: a field of the message X denotes, as in
// head(p, q).c, or `X.FIELD[INDEX]`, an entry of an array field.
type SelectorExpr struct {
	X     Expr
	Field *Ident
	Index Expr // nil: not an array field's entry
}

// UnaryExpr is `-X` or `!X`.
type UnaryExpr struct {
	Pos Pos
	Op  Token
	X   Expr
}

// BinaryExpr is `X op Y`; Op is Plus, Minus, Star, Slash, Percent (also
// written mod), a comparison, AndAnd or OrOr.
type BinaryExpr struct {
	OpPos Pos
	Op    Token
	X, Y  Expr
}

// CondExpr is `if C then X else Y`.
type CondExpr struct {
	Pos        Pos
	Cond, X, Y Expr
}

// QuantExpr is `count p: X`, `sum p: X`, `forall p: X` or `exists p: X`,
// over the processes 0..n-1, or `count p in SET: X` over a set.
type QuantExpr struct {
	Pos  Pos
	Kind string
	Var  *Ident
	Over *Set // nil: every process
	Body Expr
}

// ParenExpr is `(X)`.
type ParenExpr struct {
	Pos Pos
	X   Expr
}

func (d *SpecDecl) declPos() Pos      { return d.Pos }
func (d *SourceDecl) declPos() Pos    { return d.Pos }
func (d *ParamDecl) declPos() Pos     { return d.Pos }
func (d *ConstDecl) declPos() Pos     { return d.Pos }
func (d *TopologyDecl) declPos() Pos  { return d.Pos }
func (d *RequireDecl) declPos() Pos   { return d.Pos }
func (d *EnumDecl) declPos() Pos      { return d.Pos }
func (d *VarDecl) declPos() Pos       { return d.Pos }
func (d *MessageDecl) declPos() Pos   { return d.Pos }
func (d *ChannelsDecl) declPos() Pos  { return d.Pos }
func (d *ProcessDecl) declPos() Pos   { return d.Pos }
func (d *DefDecl) declPos() Pos       { return d.Pos }
func (d *PredicateDecl) declPos() Pos { return d.Pos }
func (d *ClaimDecl) declPos() Pos     { return d.Pos }
func (d *ChecksDecl) declPos() Pos    { return d.Pos }
func (d *BoundDecl) declPos() Pos     { return d.Pos }
func (d *LinksDecl) declPos() Pos     { return d.Pos }
func (d *SymmetryDecl) declPos() Pos  { return d.Pos }

func (s *AssignStmt) stmtPos() Pos { return s.Pos }
func (s *SendStmt) stmtPos() Pos   { return s.Pos }
func (s *IfStmt) stmtPos() Pos     { return s.Pos }
func (s *RepeatStmt) stmtPos() Pos { return s.Pos }
func (s *SkipStmt) stmtPos() Pos   { return s.Pos }
func (s *ForStmt) stmtPos() Pos    { return s.Pos }

// ExprPos is where the expression starts.
func (e *Ident) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *IntLit) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *BoolLit) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *IndexExpr) ExprPos() Pos { return e.Var.Pos }

// ExprPos is where the expression starts.
func (e *CallExpr) ExprPos() Pos { return e.Fun.Pos }

// ExprPos is where the expression starts.
func (e *SelectorExpr) ExprPos() Pos { return e.X.ExprPos() }

// ExprPos is where the expression starts.
func (e *UnaryExpr) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *BinaryExpr) ExprPos() Pos { return e.X.ExprPos() }

// ExprPos is where the expression starts.
func (e *CondExpr) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *QuantExpr) ExprPos() Pos { return e.Pos }

// ExprPos is where the expression starts.
func (e *ParenExpr) ExprPos() Pos { return e.Pos }
