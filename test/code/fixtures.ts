// Small fixture projects, one per language: a module defining `computeTotal` (with a doc comment) and a class,
// and a module using it across files, with a shadowing local, a string and a comment naming it.
export const projects: Record<string, { files: Record<string, string>; def: string; user: string }> = {
  typescript: {
    def: 'src/math.ts',
    user: 'src/app.ts',
    files: {
      'src/math.ts':
        '/** Adds up the prices. */\nexport function computeTotal(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n\nexport class Cart {\n  items: number[] = [];\n  total(): number {\n    return computeTotal(this.items);\n  }\n}\n',
      'src/app.ts':
        "import { computeTotal } from './math.js';\n\n// computeTotal is used below\nconst label = 'computeTotal';\nexport function run(computeTotal: number): number {\n  return computeTotal + 1;\n}\nexport const result = computeTotal([1, 2]);\nexport const shorthand = { computeTotal };\n",
    },
  },
  javascript: {
    def: 'lib/math.js',
    user: 'lib/app.js',
    files: {
      'lib/math.js':
        '/** Adds up the prices. */\nexport function computeTotal(prices) {\n  return prices.reduce((a, b) => a + b, 0);\n}\nexport class Cart {}\n',
      'lib/app.js':
        'import { computeTotal } from \'./math\';\n// computeTotal here\nconst s = "computeTotal";\nfunction f() {\n  const computeTotal = 3;\n  return computeTotal;\n}\nexport const r = computeTotal([1]);\n',
    },
  },
  python: {
    def: 'pkg/math.py',
    user: 'pkg/app.py',
    files: {
      'pkg/__init__.py': '',
      'pkg/math.py':
        'def compute_total(prices):\n    """Adds up the prices."""\n    return sum(prices)\n\n\nclass Cart:\n    def total(self):\n        return compute_total([])\n',
      'pkg/app.py':
        'from .math import compute_total\n\n# compute_total is used below\nLABEL = "compute_total"\n\n\ndef run(compute_total):\n    return compute_total + 1\n\n\nRESULT = compute_total([1, 2])\n',
    },
  },
  rust: {
    def: 'src/math.rs',
    user: 'src/main.rs',
    files: {
      'src/math.rs':
        '/// Adds up the prices.\npub fn compute_total(prices: &[i32]) -> i32 {\n    prices.iter().sum()\n}\n\npub struct Cart {\n    pub items: Vec<i32>,\n}\n\nimpl Cart {\n    pub fn total(&self) -> i32 {\n        compute_total(&self.items)\n    }\n}\n',
      'src/main.rs':
        'mod math;\nuse crate::math::compute_total;\n\n// compute_total is used below\nfn run(compute_total: i32) -> i32 {\n    compute_total + 1\n}\n\nfn main() {\n    let s = "compute_total";\n    println!("{} {}", compute_total(&[1, 2]), s);\n}\n',
    },
  },
  go: {
    def: 'calc/math.go',
    user: 'main.go',
    files: {
      'go.mod': 'module example.com/shop\n\ngo 1.21\n',
      'calc/math.go':
        'package calc\n\n// ComputeTotal adds up the prices.\nfunc ComputeTotal(prices []int) int {\n\tt := 0\n\tfor _, p := range prices {\n\t\tt += p\n\t}\n\treturn t\n}\n\ntype Cart struct {\n\tItems []int\n}\n',
      'main.go':
        'package main\n\nimport "example.com/shop/calc"\n\n// ComputeTotal is used below\nfunc run(ComputeTotal int) int {\n\treturn ComputeTotal + 1\n}\n\nfunc main() {\n\ts := "ComputeTotal"\n\t_ = s\n\t_ = calc.ComputeTotal([]int{1, 2})\n}\n',
    },
  },
  java: {
    def: 'src/shop/MathUtil.java',
    user: 'src/shop/App.java',
    files: {
      'src/shop/MathUtil.java':
        'package shop;\n\npublic class MathUtil {\n    /** Adds up the prices. */\n    public static int computeTotal(int[] prices) {\n        int t = 0;\n        for (int p : prices) t += p;\n        return t;\n    }\n}\n',
      'src/shop/App.java':
        'package shop;\n\nimport shop.MathUtil;\n\npublic class App {\n    // computeTotal is used below\n    static int run(int computeTotal) {\n        return computeTotal + 1;\n    }\n    public static void main(String[] args) {\n        String s = "computeTotal";\n        System.out.println(MathUtil.computeTotal(new int[] {1, 2}));\n    }\n}\n',
    },
  },
  dart: {
    def: 'lib/math.dart',
    user: 'lib/app.dart',
    files: {
      'pubspec.yaml': 'name: shop\n',
      'lib/math.dart':
        '/// Adds up the prices.\nint computeTotal(List<int> prices) {\n  return prices.fold(0, (a, b) => a + b);\n}\n\nclass Cart {\n  List<int> items = [];\n  int total() => computeTotal(items);\n}\n',
      'lib/app.dart':
        "import 'package:shop/math.dart';\n\n// computeTotal is used below\nint run(int computeTotal) {\n  return computeTotal + 1;\n}\n\nfinal label = 'computeTotal';\nfinal result = computeTotal([1, 2]);\n",
    },
  },
};

/** The symbol each fixture defines and uses. */
export const symbolOf = (lang: string) =>
  lang === 'python' || lang === 'rust' ? 'compute_total' : lang === 'go' ? 'ComputeTotal' : 'computeTotal';
