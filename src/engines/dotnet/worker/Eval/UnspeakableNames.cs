// Names the C# compiler gives what it generates (`<>f__AnonymousType0`, `<RunAsync>d__4`,
// `<>c__DisplayClass2_0`) cannot be written in C# source, yet Roslyn binds an identifier token with
// that text to the metadata type of that name, as any other. So the source spells each with a
// placeholder identifier of the same length (positions in the source stay true for diagnostics),
// the parsed tree gets the real names back, and the type is qualified by an extern alias of the
// assembly that defines it (every program assembly has an `<>f__AnonymousType0`).
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public sealed class UnspeakableNames(CSharpCompilation compilation)
{
    private readonly Dictionary<string, string> _names = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string> _placeholders = new(StringComparer.Ordinal);
    private readonly SortedSet<string> _aliases = new(StringComparer.Ordinal);

    /** An identifier as long as the name (`<>f__AnonymousType0` → `__u0_______________`), or null when the name is too short for one. */
    public string? Placeholder(string name)
    {
        if (_placeholders.TryGetValue(name, out var known)) return known;
        var placeholder = $"__u{_placeholders.Count}";
        if (placeholder.Length > name.Length) return null;
        placeholder = placeholder.PadRight(name.Length, '_');
        _placeholders[name] = placeholder;
        _names[placeholder] = name;
        return placeholder;
    }

    /** The extern alias under which the source names the assembly's types (EvalReferences gives each reference one). */
    public string? Alias(IAssemblySymbol assembly)
    {
        var alias = compilation.GetMetadataReference(assembly)?.Properties.Aliases.FirstOrDefault(a => a != "global");
        if (alias is not null) _aliases.Add(alias);
        return alias;
    }

    /** `extern alias` lines for the assemblies spelled so far (they come first in a file). */
    public IEnumerable<string> ExternAliases => _aliases.Select(a => $"extern alias {a};");

    /** The tree with each placeholder renamed back to the name it stands for. */
    public SyntaxTree Restore(SyntaxTree tree)
    {
        if (_names.Count == 0) return tree;
        var root = tree.GetRoot();
        var tokens = root.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken) && _names.ContainsKey(t.ValueText)).ToList();
        if (tokens.Count == 0) return tree;
        root = root.ReplaceTokens(tokens, (token, _) =>
        {
            var name = _names[token.ValueText];
            return SyntaxFactory.Identifier(token.LeadingTrivia, SyntaxKind.IdentifierToken, name, name, token.TrailingTrivia);
        });
        return tree.WithRootAndOptions(root, tree.Options);
    }
}
