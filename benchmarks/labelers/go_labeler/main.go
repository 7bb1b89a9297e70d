// Command golabeler labels Go declarations with the standard library's go/parser.
//
//	go run . < files.json > shapes.json
//
// stdin: [{"path": "a.go", "text": "..."}, ...]; stdout: {path: {symbol: [sig, body,
// doc, tokens, trivial]}}. The symbols memkit names (docs/staleness.md): functions,
// methods as Type.Method (the receiver's type), types; the first definition of a name
// wins. Parts are go/scanner tokens of the declaration without comments, automatic
// semicolons, trailing commas and redundant parentheses (around a whole expression,
// around a primary expression, around a binary operation that binds more tightly than
// the one outside it): formatting never counts. Docs are the doc comment groups
// go/parser attaches, then those of each struct field and interface method.
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"strings"
)

type file struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

func main() {
	var files []file
	if err := json.NewDecoder(os.Stdin).Decode(&files); err != nil {
		panic(err)
	}
	out := map[string]map[string][]any{}
	for _, f := range files {
		out[f.Path] = label(f.Text)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

type labeler struct {
	fset  *token.FileSet
	src   []byte
	drop  map[token.Pos]bool // positions of redundant parentheses
	found map[string][]any
}

func label(text string) (shapes map[string][]any) {
	shapes = map[string][]any{}
	defer func() {
		if recover() != nil {
			shapes = map[string][]any{}
		}
	}()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", text, parser.ParseComments)
	if err != nil && f == nil {
		return shapes
	}
	l := &labeler{fset: fset, src: []byte(text), drop: map[token.Pos]bool{}, found: shapes}
	l.parens(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				owner := typeName(d.Recv.List[0].Type)
				if owner == "" {
					continue
				}
				name = owner + "." + name
			}
			var body ast.Node
			if d.Body != nil {
				body = d.Body
			}
			l.add(name, d, d.Name, body, docOf(d.Doc), nil)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && !d.Lparen.IsValid() {
					doc = d.Doc
				}
				l.add(ts.Name.Name, ts, ts.Name, ts.Type, docOf(doc), ts.Type)
			}
		}
	}
	return shapes
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.IndexExpr:
		return typeName(t.X)
	case *ast.IndexListExpr:
		return typeName(t.X)
	case *ast.ParenExpr:
		return typeName(t.X)
	}
	return ""
}

func docOf(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	var lines []string
	for _, c := range g.List {
		lines = append(lines, strings.Join(strings.Fields(c.Text), " "))
	}
	return strings.Join(lines, "\n")
}

func (l *labeler) add(name string, node ast.Node, ident *ast.Ident, body ast.Node, doc string, typ ast.Expr) {
	if _, ok := l.found[name]; ok {
		return
	}
	skip := []ast.Node{ident}
	if body != nil {
		skip = append(skip, body)
	}
	sig := kind(node) + " " + strings.Join(l.tokens(node, skip), " ")
	bodyToks := []string{}
	if body != nil {
		bodyToks = l.tokens(body, nil)
	}
	// members' docs: struct fields, interface methods
	if typ != nil {
		var fields *ast.FieldList
		switch t := typ.(type) {
		case *ast.StructType:
			fields = t.Fields
		case *ast.InterfaceType:
			fields = t.Methods
		}
		if fields != nil {
			for _, fl := range fields.List {
				if d := docOf(fl.Doc); d != "" {
					doc += "\x1e" + d
				}
			}
		}
	}
	whole := l.tokens(node, []ast.Node{ident})
	inner := 0
	for _, t := range bodyToks {
		if t != "{" && t != "}" {
			inner++
		}
	}
	l.found[name] = []any{sig, strings.Join(bodyToks, " "), doc, whole, inner == 0}
}

func kind(n ast.Node) string {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv != nil {
			return "method"
		}
		return "func"
	case *ast.TypeSpec:
		if n.Assign.IsValid() {
			return "alias"
		}
		return "type"
	}
	return "?"
}

// tokens: the scanner's tokens of node's source without comments, automatic semicolons,
// trailing commas, redundant parentheses and the skipped subtrees.
func (l *labeler) tokens(node ast.Node, skip []ast.Node) []string {
	start, end := l.fset.Position(node.Pos()).Offset, l.fset.Position(node.End()).Offset
	base := node.Pos() - token.Pos(start)
	var s scanner.Scanner
	fs := token.NewFileSet()
	tf := fs.AddFile("", fs.Base(), len(l.src))
	s.Init(tf, l.src, nil, 0)
	var out []string
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := tf.Offset(pos)
		if off < start {
			continue
		}
		if off >= end {
			break
		}
		p := base + token.Pos(off)
		skipped := false
		for _, k := range skip {
			if p >= k.Pos() && p < k.End() {
				skipped = true
			}
		}
		if skipped || l.drop[p] || (tok == token.SEMICOLON && lit == "\n") {
			continue
		}
		text := lit
		if text == "" {
			text = tok.String()
		}
		if tok == token.SEMICOLON {
			text = ";"
		}
		if (text == ")" || text == "]" || text == "}") && len(out) > 0 && out[len(out)-1] == "," {
			out = out[:len(out)-1]
		}
		out = append(out, text)
	}
	return out
}

// parens marks the parentheses that leaving out cannot give another program.
func (l *labeler) parens(f *ast.File) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if p, ok := n.(*ast.ParenExpr); ok && len(stack) > 0 && redundant(p, stack[len(stack)-1], stack) {
			l.drop[p.Lparen] = true
			l.drop[p.Rparen] = true
		}
		stack = append(stack, n)
		return true
	})
}

func hasComposite(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(*ast.CompositeLit); ok {
			found = true
		}
		return !found
	})
	return found
}

func redundant(p *ast.ParenExpr, parent ast.Node, stack []ast.Node) bool {
	inner := p.X
	for _, s := range stack { // `if (T{}) == x {`: the parentheses are needed there
		switch s.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.RangeStmt:
			if hasComposite(inner) {
				return false
			}
		}
	}
	switch inner.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.CallExpr, *ast.SelectorExpr, *ast.IndexExpr, *ast.ParenExpr, *ast.CompositeLit:
		if _, isType := parent.(*ast.StarExpr); !isType {
			return true
		}
	}
	switch par := parent.(type) {
	case *ast.ExprStmt, *ast.ReturnStmt, *ast.AssignStmt, *ast.IfStmt, *ast.ForStmt, *ast.SwitchStmt,
		*ast.CaseClause, *ast.KeyValueExpr, *ast.ValueSpec, *ast.SendStmt, *ast.IncDecStmt, *ast.ParenExpr:
		return true
	case *ast.CallExpr:
		return par.Fun != ast.Expr(p)
	case *ast.CompositeLit:
		return par.Type != ast.Expr(p)
	case *ast.IndexExpr:
		return par.Index == ast.Expr(p)
	case *ast.BinaryExpr:
		b, ok := inner.(*ast.BinaryExpr)
		if !ok {
			return false
		}
		if b.Op.Precedence() > par.Op.Precedence() {
			return true
		}
		return b.Op.Precedence() == par.Op.Precedence() && par.X == ast.Expr(p)
	}
	return false
}
