// A variable of an anonymous type reaches the compiled method as object: its class is internal to the
// program's assembly and C# cannot name it. So that `summary.Count` binds as in the source, the
// compiled assembly declares a mirror of that class (the same read-only properties, of the same types;
// an anonymous type in a property mirrored in turn, a type C# cannot name read as object), which the
// method's prologue builds from the object by reflection under the variable's name. A mirror prints,
// compares and hashes as the object it mirrors, and the method returns that object when the value of
// the expression is a mirror (`summary`, `new[] { summary }.First()`).
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace DebugBridge.Worker.Eval;

public sealed partial class AnonymousMirrors
{
    /** The mirrors' base class in the compiled assembly. */
    public const string Base = "DebugBridgeAnonymous";
    private const string Generated = "[global::System.Runtime.CompilerServices.CompilerGenerated]";

    private readonly Dictionary<INamedTypeSymbol, MirrorClass> _classes = new(SymbolEqualityComparer.Default);
    private readonly List<string> _declarations = [];
    private int _next;
    private readonly List<ITypeSymbol> _propertyTypes = [];

    /** Anonymous types as the C# compiler emits them (`<>f__AnonymousType0`2`): classes of the program's assembly. */
    public static bool IsAnonymous(ITypeSymbol? type) =>
        type is INamedTypeSymbol { TypeKind: TypeKind.Class } named
        && (named.IsAnonymousType || named.OriginalDefinition.MetadataName.StartsWith("<>f__AnonymousType", StringComparison.Ordinal));

    /** Whether the type is a mirror this class declared (the expression's value is then the mirrored object). */
    public static bool IsMirror(ITypeSymbol? type) =>
        type is INamedTypeSymbol { BaseType: { Name: Base } baseType } && baseType.ContainingAssembly?.Name == ExpressionSource.AssemblyName;

    /** The types the mirrors' properties are cast to: the compiled code needs access to their assemblies. */
    public IReadOnlyList<ITypeSymbol> PropertyTypes => _propertyTypes;

    /** The declarations to put beside the evaluation class: none when no variable is mirrored. */
    public string Declarations()
    {
        if (_declarations.Count == 0) return "";
        var text = new StringBuilder();
        text.Append("internal abstract class ").Append(Base).Append(" {\n");
        text.Append("private readonly object original;\n");
        text.Append(Generated).Append(" protected ").Append(Base).Append("(object original) { this.original = original; }\n");
        text.Append(Generated).Append(" protected static object Read(object value, string name) => value.GetType().GetProperty(name).GetValue(value);\n");
        text.Append(Generated).Append(" public static object Unwrap(object value) => value is ").Append(Base).Append(" mirror ? mirror.original : value;\n");
        text.Append(Generated).Append(" public override string ToString() => original.ToString();\n");
        text.Append(Generated).Append(" public override bool Equals(object other) => original.Equals(Unwrap(other));\n");
        text.Append(Generated).Append(" public override int GetHashCode() => original.GetHashCode();\n");
        text.Append("}\n");
        foreach (var declaration in _declarations) text.Append(declaration);
        return text.ToString();
    }

    /**
     * The mirror's type for an anonymous type, as the prologue's local names it. A mirror class is
     * generic over the types of its properties (its nested mirrors' too, flattened), as the compiler's
     * own anonymous classes are: a type of the program that another assembly cannot name in a member's
     * signature (an internal record) can still be a type argument in the method's body.
     */
    public string Mirror(INamedTypeSymbol anonymous)
    {
        var mirror = Declare(anonymous);
        return Constructed(mirror.Name, mirror.Leaves.Select(t => FrameTypes.Source(t)!));
    }

    /** A diagnostic's text with each mirror shown as the anonymous type it mirrors (`<anonymous type: int Count, string Name>`). */
    public string Readable(string message) =>
        MirrorReference().Replace(message, m => _classes.Values.FirstOrDefault(c => c.Name == "__Anonymous" + m.Groups[1].Value)?.Display ?? m.Value);

    private sealed record MirrorClass(string Name, List<ITypeSymbol> Leaves, string Display);

    private MirrorClass Declare(INamedTypeSymbol anonymous)
    {
        if (_classes.TryGetValue(anonymous, out var known)) return known;
        var name = $"__Anonymous{_next++}";
        var leaves = new List<ITypeSymbol>();
        var shown = new List<string>();
        var properties = new StringBuilder();
        var reads = new StringBuilder();
        foreach (var property in anonymous.GetMembers().OfType<IPropertySymbol>().Where(p => !p.IsStatic && p.Parameters.IsEmpty))
        {
            var member = SyntaxFacts.GetKeywordKind(property.Name) == SyntaxKind.None ? property.Name : "@" + property.Name;
            var read = $"{Base}.Read(value, \"{property.Name}\")";
            string type;
            if (IsAnonymous(property.Type))
            {
                var nested = Declare((INamedTypeSymbol)property.Type);
                type = Constructed(nested.Name, nested.Leaves.Select((_, i) => $"T{leaves.Count + i}"));
                leaves.AddRange(nested.Leaves);
                read = $"{read} is {{ }} __{member.TrimStart('@')} ? new {type}(__{member.TrimStart('@')}) : null";
                shown.Add($"{nested.Display} {property.Name}");
            }
            else if (FrameTypes.Nameable(property.Type))
            {
                type = $"T{leaves.Count}";
                leaves.Add(property.Type);
                read = $"({type}){read}";
                shown.Add($"{property.Type.ToDisplayString(SymbolDisplayFormat.CSharpErrorMessageFormat)} {property.Name}");
            }
            else
            {
                // A type C# cannot name (a list of anonymous objects): read as object.
                type = "object";
                shown.Add($"object {property.Name}");
            }
            properties.Append("public ").Append(type).Append(' ').Append(member).Append(" { get; }\n");
            reads.Append(member).Append(" = ").Append(read).Append(";\n");
        }
        var declared = Constructed(name, leaves.Select((_, i) => $"T{i}"));
        _declarations.Add($"internal sealed class {declared} : {Base} {{\n{properties}{Generated} public {name}(object value) : base(value) {{\n{reads}}}\n}}\n");
        _propertyTypes.AddRange(leaves);
        var mirror = new MirrorClass(name, leaves, $"<anonymous type: {string.Join(", ", shown)}>");
        _classes.Add(anonymous, mirror);
        return mirror;
    }

    private static string Constructed(string name, IEnumerable<string> arguments)
    {
        var list = string.Join(", ", arguments);
        return list.Length == 0 ? name : $"{name}<{list}>";
    }

    /** A mirror's name in a message: namespace-qualified or not, with its type arguments (nested brackets included). */
    [GeneratedRegex(@"(?:[A-Za-z_][A-Za-z0-9_]*\.)*__Anonymous(\d+)(?:<(?>[^<>]+|<(?<depth>)|>(?<-depth>))*(?(depth)(?!))>)?")]
    private static partial Regex MirrorReference();
}
