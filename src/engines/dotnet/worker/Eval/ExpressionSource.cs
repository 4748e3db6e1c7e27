// The C# the worker compiles for an expression: the frame's source file's usings (those the
// references resolve), its namespace, and one static method whose parameters are the frame's
// variables the expression names (`this` as `__this`, by reference when the expression assigns
// them) and whose body returns the expression. The assembly lets the runtime skip access checks into
// the assemblies it uses (IgnoresAccessChecksToAttribute, which it declares itself, as the runtime
// only matches the attribute by name).
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

/**
 * A parameter of the evaluation method. `Hidden`: its type is not accessible from another assembly (a
 * private nested type, an internal iterator of the framework): the method takes it as object (C#
 * refuses a parameter less accessible than its method) and casts it to its type in a local of the
 * same name, or, when `Mirror` names the mirror of its anonymous type (AnonymousMirrors), builds
 * that mirror from it in the local.
 */
public sealed record SourceParameter(string Name, string Type, bool ByRef, bool Hidden = false, string? Mirror = null);

public static class ExpressionSource
{
    public const string AssemblyName = "DebugBridge.Evaluation";
    public const string ClassName = "DebugBridgeEvaluation";
    public const string MethodName = "Evaluate";
    public const string This = "__this";

    /** The source, and where the expression's text starts in it. */
    public static (string Text, int ExpressionStart) Write(
        IReadOnlyList<string> usings,
        string ns,
        IReadOnlyList<SourceParameter> parameters,
        string returnType,
        string expression,
        IEnumerable<string> accessedAssemblies,
        string mirrors = "",
        bool unwrap = false)
    {
        var text = new StringBuilder();
        // C# wants the usings before any attribute.
        foreach (var line in usings) text.Append(line).Append('\n');
        foreach (var assembly in accessedAssemblies.Order(StringComparer.Ordinal)) text.Append("[assembly: System.Runtime.CompilerServices.IgnoresAccessChecksTo(\"").Append(assembly).Append("\")]\n");
        text.Append("namespace System.Runtime.CompilerServices { [System.AttributeUsage(System.AttributeTargets.Assembly, AllowMultiple = true)] internal sealed class IgnoresAccessChecksToAttribute : System.Attribute { public IgnoresAccessChecksToAttribute(string assemblyName) { } } }\n");
        var named = ns.Length > 0;
        if (named) text.Append("namespace ").Append(ns).Append(" {\n");
        text.Append(mirrors);
        text.Append("internal static class ").Append(ClassName).Append(" {\n");
        // Private: C# lets a private method take a type no other assembly can see (a struct the compiler generated).
        text.Append("private static ").Append(returnType).Append(' ').Append(MethodName).Append('(');
        text.Append(string.Join(", ", parameters.Select(p => p.Hidden ? $"object {HiddenName(p.Name)}" : $"{(p.ByRef ? "ref " : "")}{p.Type} {p.Name}")));
        text.Append(") {\n");
        foreach (var p in parameters.Where(p => p.Hidden))
        {
            var value = HiddenName(p.Name);
            if (p.Mirror is { } mirror) text.Append(mirror).Append(' ').Append(p.Name).Append(" = ").Append(value).Append(" is null ? null : new ").Append(mirror).Append('(').Append(value).Append(");\n");
            else text.Append(p.Type).Append(' ').Append(p.Name).Append(" = (").Append(p.Type).Append(')').Append(value).Append(";\n");
        }
        text.Append(returnType == "void" ? "" : "return ").Append(unwrap ? $"{AnonymousMirrors.Base}.Unwrap(" : "");
        var start = text.Length;
        text.Append(expression).Append(unwrap ? "\n);\n}\n}\n" : "\n;\n}\n}\n");
        if (named) text.Append("}\n");
        return (text.ToString(), start);
    }

    private const string HiddenPrefix = "__object_";

    private static string HiddenName(string name) => HiddenPrefix + name.TrimStart('@');

    /** The local that holds a hidden parameter (or its mirror) under the variable's name: assigning it assigns the frame's variable. */
    public static bool IsHiddenLocal(ILocalSymbol local) =>
        local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is Microsoft.CodeAnalysis.CSharp.Syntax.VariableDeclaratorSyntax { Initializer.Value: { } value }
        && value.DescendantNodesAndSelf().OfType<Microsoft.CodeAnalysis.CSharp.Syntax.IdentifierNameSyntax>().Any(id => id.Identifier.ValueText.StartsWith(HiddenPrefix, StringComparison.Ordinal));

    /** `using` directives for what the file imports, each kept only when the references resolve it. */
    public static List<string> Usings(ImportsInput imports, CSharpCompilation compilation, FrameTypes types)
    {
        var lines = new List<string>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var ns in imports.Namespaces)
        {
            if (IsNamespace(compilation, ns) && seen.Add("n:" + ns)) lines.Add($"using global::{ns};");
        }
        foreach (var type in imports.StaticTypes)
        {
            if (types.Definition(null, type) is { } symbol && seen.Add("s:" + type)) lines.Add($"using static {Qualified(symbol)};");
        }
        foreach (var alias in imports.Aliases)
        {
            if (!SyntaxFacts.IsValidIdentifier(alias.Name) || !seen.Add("a:" + alias.Name)) continue;
            if (alias.Namespace is { } ns && IsNamespace(compilation, ns)) lines.Add($"using {alias.Name} = global::{ns};");
            else if (alias.Type is { } type && types.Definition(null, type) is { } symbol) lines.Add($"using {alias.Name} = {Qualified(symbol)};");
            else if (alias.Input is { } input && types.Resolve(input) is { } resolved && FrameTypes.Source(resolved) is { } spelled) lines.Add($"using {alias.Name} = {spelled};");
        }
        return lines;
    }

    private static string Qualified(INamedTypeSymbol type) => type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);

    private static bool IsNamespace(CSharpCompilation compilation, string name)
    {
        INamespaceSymbol? current = compilation.GlobalNamespace;
        foreach (var part in name.Split('.'))
        {
            current = current?.GetNamespaceMembers().FirstOrDefault(n => n.Name == part);
            if (current is null) return false;
        }
        return true;
    }
}

/**
 * The expression after the worker's rewrites (`this` → `__this`, a member of `this` named alone →
 * `__this.Member`), with the way back from a position in it to the user's column.
 */
public sealed class RewrittenExpression
{
    private readonly List<(int Start, int Length, string Replacement)> _edits = [];

    public RewrittenExpression(string original) => Original = original;

    public string Original { get; }

    public bool Changed => _edits.Count > 0;

    /** Replaces `length` characters at `start` of the original text (edits must not overlap). */
    public void Replace(int start, int length, string replacement)
    {
        if (_edits.Any(e => start < e.Start + e.Length && e.Start < start + length)) return;
        _edits.Add((start, length, replacement));
    }

    public string Text
    {
        get
        {
            var text = new StringBuilder(Original);
            foreach (var (start, length, replacement) in _edits.OrderByDescending(e => e.Start)) text.Remove(start, length).Insert(start, replacement);
            return text.ToString();
        }
    }

    /** A position in Text back to the original text (a position inside a replacement maps to its start). */
    public int ToOriginal(int position)
    {
        var shift = 0;
        foreach (var (start, length, replacement) in _edits.OrderBy(e => e.Start))
        {
            var newStart = start + shift;
            if (position < newStart) break;
            if (position < newStart + replacement.Length) return start;
            shift += replacement.Length - length;
        }
        return Math.Clamp(position - shift, 0, Original.Length);
    }
}
