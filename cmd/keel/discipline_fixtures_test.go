package main

import (
	"fmt"
	"strings"
)

// Workspaces for the discipline suites: small projects whose programs fail
// the way real ones do.

// pyScripts are six scripts failing with six different exceptions; every
// traceback starts "Traceback (most recent call last):".
var pyScripts = map[string]string{
	"s1.py": "def ratio(a, b):\n    return a / b\n\nprint(ratio(1, 0))\n",
	"s2.py": "config = {\"port\": 8080}\n\ndef name():\n    return config[\"name\"]\n\nprint(name())\n",
	"s3.py": "items = [1, 2, 3]\n\ndef fourth():\n    return items[3]\n\nprint(fourth())\n",
	"s4.py": "def label(n):\n    return \"item \" + n\n\nprint(label(4))\n",
	"s5.py": "def total():\n    return subtotal + 1\n\nprint(total())\n",
	"s6.py": "import re\n\ndef first_word(s):\n    return re.match(r\"\\d+\", s).group(0).split()\n\nprint(first_word(\"abc\"))\n",
}

// pyLastLines are the scripts' exception lines, for machines without python3.
var pyLastLines = map[string]string{
	"s1.py": "ZeroDivisionError: division by zero",
	"s2.py": "KeyError: 'name'",
	"s3.py": "IndexError: list index out of range",
	"s4.py": "TypeError: can only concatenate str (not \"int\") to str",
	"s5.py": "NameError: name 'subtotal' is not defined",
	"s6.py": "AttributeError: 'NoneType' object has no attribute 'group'",
}

// pyMissing are six scripts failing on the same missing module.
func pyMissing() map[string]string {
	m := map[string]string{}
	for i := 1; i <= 6; i++ {
		m[fmt.Sprintf("m%d.py", i)] = fmt.Sprintf("import keel_missing_module\n\nprint(%d)\n", i)
	}
	return m
}

// pyCanned is what python3 prints for scripts, when it is not installed.
func pyCanned(scripts map[string]string, last func(name string) string) map[string]canned {
	out := map[string]canned{}
	for name := range scripts {
		tb := fmt.Sprintf("Traceback (most recent call last):\n  File \"/work/%s\", line 4, in <module>\n    print(main())\n          ^^^^^^\n%s", name, last(name))
		out["python3 "+name] = canned{out: tb, exit: 1}
	}
	return out
}

// goTriage is a module with six packages failing six ways: assertions,
// a build error, a panic, a vet error, a failing example.
var goTriage = map[string]string{
	"go.mod":        "module example.com/triage\n\ngo 1.22\n",
	"p1/p1.go":      "package p1\n\nfunc Add(a, b int) int { return a - b }\n",
	"p1/p1_test.go": "package p1\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d, want 3\", got)\n\t}\n}\n",
	"p2/p2.go":      "package p2\n\nfunc F() int { return undefinedThing }\n",
	"p3/p3.go":      "package p3\n\nfunc Get(i int) int { s := []int{1, 2, 3}; return s[i] }\n",
	"p3/p3_test.go": "package p3\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) { _ = Get(5) }\n",
	"p4/p4.go":      "package p4\n\nimport \"strings\"\n\nfunc Title(s string) string { return strings.ToLower(s) }\n",
	"p4/p4_test.go": "package p4\n\nimport \"testing\"\n\nfunc TestTitle(t *testing.T) {\n\tif got := Title(\"go\"); got != \"Go\" {\n\t\tt.Errorf(\"Title(%q) = %q, want %q\", \"go\", got, \"Go\")\n\t}\n}\n",
	"p5/p5.go":      "package p5\n\nimport \"fmt\"\n\nfunc Say(s string) string { return fmt.Sprintf(\"%d\", s) }\n",
	"p5/p5_test.go": "package p5\n\nimport \"testing\"\n\nfunc TestSay(t *testing.T) { _ = Say(\"x\") }\n",
	"p6/p6.go":      "package p6\n\nfunc Half(n int) int { return n / 3 }\n",
	"p6/p6_test.go": "package p6\n\nimport \"testing\"\n\nfunc TestHalf(t *testing.T) {\n\tfor _, n := range []int{4, 10} {\n\t\tif Half(n) != n/2 {\n\t\t\tt.Errorf(\"Half(%d) = %d\", n, Half(n))\n\t\t}\n\t}\n}\n",
}

// goModule is a module with one package whose test passes until Add is
// fixed ("a - b" to "a + b"), and a comment line edits can change.
func goModule(fixed bool) map[string]string {
	op := "-"
	if fixed {
		op = "+"
	}
	return map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.22\n",
		"calc.go":      "package calc\n\n// rev 0\n\n// Add adds.\nfunc Add(a, b int) int { return a " + op + " b }\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 2); got != 3 {\n\t\tt.Fatalf(\"Add(1, 2) = %d, want 3\", got)\n\t}\n}\n",
	}
}

// goFiles is n small Go files for an audit, f01.go … fNN.go.
func goFiles(n int) map[string]string {
	m := map[string]string{}
	for i := 1; i <= n; i++ {
		m[fmt.Sprintf("f%02d.go", i)] = fmt.Sprintf("package audit\n\n// F%d does one thing.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	return m
}

// goSource is a Go file of n lines with a function every ten lines.
func goSource(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 2; i <= n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "func f%d() int { return %d }\n", i, i)
		} else {
			fmt.Fprintf(&b, "// line %d\n", i)
		}
	}
	return b.String()
}
