// Compiles a C# expression typed at a stop into a small assembly for the debuggee: a static method
// whose parameters are the frame's variables. Names resolve as at that point of the source: the
// variables, then members of `this` (rewritten to `__this.Member`) and of the method's type and its
// outer types, then what the file's usings bring; everything is accessible (RoslynAccess). Roslyn's
// errors come back with the column in the expression as the user wrote it.
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace DebugBridge.Worker.Eval;

public sealed class ExpressionCompiler
{
    private const int MaxDiagnostics = 3;
    private readonly EvalReferences _references = new();

    private object? _warmed;

    /**
     * One compile and emit against the worker's own framework, before the first real request: Roslyn's
     * binder and emitter are compiled (JIT) and the framework's metadata read, the costs of a first
     * compile. Once per worker.
     */
    public object Warm()
    {
        if (_warmed is not null) return _warmed;
        var watch = System.Diagnostics.Stopwatch.StartNew();
        var core = typeof(object).Assembly.Location;
        var list = new TypeInput("named", core, "System.Collections.Generic.List`1", [new TypeInput("primitive", null, "int", null, null, null, null)], null, null, null);
        var result = Compile(new CompileRequest(
            "items.Where(x => x > 1).Select(x => new { x, Text = $\"{x}\" }).ToList().Count switch { > 1 => true, _ => items is { Count: > 0 } }",
            true,
            null,
            [core],
            "",
            null,
            [new VariableInput("items", list)],
            new ImportsInput(["System", "System.Linq"], [], [])));
        _warmed = new { milliseconds = watch.ElapsedMilliseconds, compiled = result.Assembly is not null };
        return _warmed;
    }

    public CompileResult Compile(CompileRequest request)
    {
        var parsed = SyntaxFactory.ParseExpression(request.Expression);
        var syntaxErrors = parsed.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        if (syntaxErrors.Count > 0)
        {
            return Failed([.. syntaxErrors.Take(MaxDiagnostics).Select(d => new CompileDiagnostic(d.Id, d.GetMessage(), d.Location.SourceSpan.Start + 1))]);
        }
        // `[.. a, 9]` alone has no type to be made as (C# gives it none either); the result the worker returns is no target type.
        var bare = parsed;
        while (bare is ParenthesizedExpressionSyntax inner) bare = inner.Expression;
        if (bare is CollectionExpressionSyntax collection)
        {
            return Failed([new CompileDiagnostic("CS9176", "There is no target type for the collection expression.", collection.SpanStart + 1)]);
        }

        var (empty, byPath) = _references.For(request.References);
        var types = new FrameTypes(empty, byPath);
        var unavailable = new Dictionary<string, string>(StringComparer.Ordinal);
        var variables = Variables(request, types, unavailable);
        List<string> usings = [.. types.Unspeakable.ExternAliases, .. ExpressionSource.Usings(request.Imports, empty, types)];
        var self = variables.FirstOrDefault(v => v.Name == ExpressionSource.This);
        var declaring = request.DeclaringType is { } d ? types.Resolve(d) as INamedTypeSymbol : null;

        var expression = new RewrittenExpression(request.Expression);
        foreach (var node in parsed.DescendantNodesAndSelf().Where(n => n is ThisExpressionSyntax or BaseExpressionSyntax))
        {
            expression.Replace(node.SpanStart, node.Span.Length, ExpressionSource.This);
        }

        // Pass one: which names the frame's variables and usings leave unresolved are members of this type.
        if (self is null && request.NoThis is { } noThis) unavailable[ExpressionSource.This] = noThis;
        var first = Bind(empty, types, usings, request.Namespace, variables, expression, "object", byRef: new HashSet<string>());
        if (MembersOfThisType(first, expression, (self?.Symbol as INamedTypeSymbol) ?? declaring, self is null ? request.NoThis ?? "'this' is not available here" : null, unavailable))
        {
            first = Bind(empty, types, usings, request.Namespace, variables, expression, "object", byRef: new HashSet<string>());
        }

        var (model, method, body) = (first.Model, first.Method, first.Body);
        var valueType = model.GetTypeInfo(first.Expression).Type;
        var isVoid = valueType?.SpecialType == SpecialType.System_Void;
        // A type another assembly cannot name in a signature is returned as object (boxed when a struct).
        var returnType = isVoid ? "void" : valueType is null || valueType.TypeKind == TypeKind.Error || !FrameTypes.Accessible(valueType) ? "object" : FrameTypes.Source(valueType) ?? "object";
        // A mirror of an anonymous-type variable is returned as the object it mirrors.
        var unwrap = AnonymousMirrors.IsMirror(valueType);
        var operation = model.GetOperation(body);
        var byRef = operation is null ? [] : AssignedParameters(operation, method);
        if (!request.SideEffects && operation is not null && PurityCheck.SideEffect(operation, method, request.Pure) is { } effect)
        {
            return new CompileResult(null, 0, [], null, false, [], effect, []);
        }
        var accessed = operation is null ? [] : AccessedAssemblies(operation, [.. first.Parameters.Select(p => p.Symbol), .. first.Mirrors.PropertyTypes]);

        var final = Bind(empty, types, usings, request.Namespace, variables, expression, returnType, byRef, accessed, unwrap);
        using var image = new MemoryStream();
        var emitted = final.Compilation.Emit(image);
        if (!emitted.Success) return Failed(Describe(emitted.Diagnostics, final, expression, unavailable));
        var bytes = image.ToArray();
        return new CompileResult(
            Convert.ToBase64String(bytes),
            MethodToken(bytes),
            [.. final.Parameters.Select(p => new ParameterOutput(p.Name == ExpressionSource.This ? "this" : p.Name, byRef.Contains(p.Name)))],
            isVoid || unwrap ? null : valueType?.ToDisplayString(),
            isVoid,
            [],
            null,
            []);
    }

    private sealed record Variable(string Name, ITypeSymbol Symbol, string Source);

    private sealed record Bound(
        CSharpCompilation Compilation,
        SemanticModel Model,
        IMethodSymbol Method,
        MethodDeclarationSyntax Body,
        ExpressionSyntax Expression,
        int ExpressionStart,
        IReadOnlyList<Variable> Parameters,
        AnonymousMirrors Mirrors);

    /** The frame's variables C# can name and type (`this` as `__this`). */
    private static List<Variable> Variables(CompileRequest request, FrameTypes types, Dictionary<string, string> unavailable)
    {
        var variables = new List<Variable>();
        foreach (var input in request.Variables)
        {
            var name = input.Name == "this" ? ExpressionSource.This : input.Name;
            if (!SyntaxFacts.IsValidIdentifier(name) || variables.Any(v => v.Name == name)) continue;
            var symbol = types.Resolve(input.Type);
            // The framework's hidden classes (the iterator behind `list.Take(3)`) are seen as what they implement, as the code declared them.
            if (symbol is INamedTypeSymbol { IsReferenceType: true } hidden && !FrameTypes.DefinitionAccessible(hidden) && PurityCheck.IsFramework(hidden)) symbol = FrameTypes.PublicView(hidden);
            var source = symbol is null ? null : types.Spell(symbol);
            if (symbol is null || source is null)
            {
                unavailable[name] = symbol is null
                    ? $"{input.Name} is a variable of this frame that compiled expressions cannot take: its type could not be found in the program's assemblies"
                    : $"{input.Name} is a variable of this frame that compiled expressions cannot take: its type {symbol.ToDisplayString()} cannot be a parameter's";
                continue;
            }
            variables.Add(new Variable(name, symbol, source));
        }
        return variables;
    }

    private static Bound Bind(
        CSharpCompilation empty,
        FrameTypes types,
        IReadOnlyList<string> usings,
        string ns,
        IReadOnlyList<Variable> variables,
        RewrittenExpression expression,
        string returnType,
        IReadOnlySet<string> byRef,
        IEnumerable<string>? accessed = null,
        bool unwrap = false)
    {
        var text = expression.Text;
        var named = ParsedNames(text);
        // Only the variables the expression names become parameters: each is a value read at every call.
        var parameters = variables.Where(v => named.Contains(v.Name)).ToList();
        var mirrors = new AnonymousMirrors();
        SourceParameter Parameter(Variable p)
        {
            var hidden = !byRef.Contains(p.Name) && p.Symbol.IsReferenceType && !FrameTypes.Accessible(p.Symbol);
            var mirror = hidden && AnonymousMirrors.IsAnonymous(p.Symbol) ? mirrors.Mirror((INamedTypeSymbol)p.Symbol) : null;
            return new SourceParameter("@" + p.Name, p.Source, byRef.Contains(p.Name), hidden, mirror);
        }
        var sourceParameters = parameters.Select(Parameter).ToList();
        // A variable assigned is passed by reference as itself, not mirrored: then nothing to unwrap.
        var declarations = mirrors.Declarations();
        unwrap &= declarations.Length > 0;
        var (source, start) = ExpressionSource.Write(usings, ns, sourceParameters, returnType, text, accessed ?? [], declarations, unwrap);
        var tree = types.Unspeakable.Restore(CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Preview)));
        var compilation = empty.AddSyntaxTrees(tree);
        var model = compilation.GetSemanticModel(tree, ignoreAccessibility: true);
        var root = tree.GetRoot();
        var declaration = root.DescendantNodes().OfType<MethodDeclarationSyntax>().First(m => m.Identifier.ValueText == ExpressionSource.MethodName);
        var method = model.GetDeclaredSymbol(declaration)!;
        var statement = declaration.Body!.Statements.Last();
        var expressionNode = statement is ReturnStatementSyntax { Expression: { } returned } ? returned : ((ExpressionStatementSyntax)statement).Expression;
        if (unwrap) expressionNode = ((InvocationExpressionSyntax)expressionNode).ArgumentList.Arguments[0].Expression;
        return new Bound(compilation, model, method, declaration, expressionNode, start, parameters, mirrors);
    }

    private static HashSet<string> ParsedNames(string text) =>
        [.. SyntaxFactory.ParseExpression(text).DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText)];

    /**
     * A name the expression uses alone that nothing in scope declares, and that is a member of the
     * frame's type (or of its base or outer types): `__this.Name` for an instance member, the type's
     * full name for a static member or nested type. An instance member where the frame has no `this`
     * is recorded as unavailable, with why. True when the expression changed.
     */
    private static bool MembersOfThisType(Bound bound, RewrittenExpression expression, INamedTypeSymbol? type, string? noThis, Dictionary<string, string> unavailable)
    {
        if (type is null) return false;
        var changed = false;
        foreach (var name in bound.Expression.DescendantNodesAndSelf().OfType<SimpleNameSyntax>())
        {
            if (!StandsAlone(name)) continue;
            var info = bound.Model.GetSymbolInfo(name);
            if (info.Symbol is not null || info.CandidateSymbols.Length > 0) continue;
            var member = FindMember(type, name.Identifier.ValueText);
            if (member is null) continue;
            var at = expression.ToOriginal(name.SpanStart - bound.ExpressionStart);
            var length = name.Identifier.Span.Length;
            if (member.IsStatic || member is ITypeSymbol)
            {
                expression.Replace(at, length, $"{member.ContainingType.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat)}.{name.Identifier.Text}");
            }
            else if (noThis is null)
            {
                expression.Replace(at, length, $"{ExpressionSource.This}.{name.Identifier.Text}");
            }
            else
            {
                unavailable[name.Identifier.ValueText] = $"'{name.Identifier.ValueText}' is an instance member of {member.ContainingType.Name}, and {noThis}";
                continue;
            }
            changed = true;
        }
        return changed;
    }

    /** A simple name not qualified by anything (`x`, `F(…)`), where C# would look in scope. */
    private static bool StandsAlone(SimpleNameSyntax name) => name.Parent switch
    {
        MemberAccessExpressionSyntax access => access.Expression == name,
        QualifiedNameSyntax qualified => qualified.Left == name,
        MemberBindingExpressionSyntax or NameColonSyntax or NameEqualsSyntax or AliasQualifiedNameSyntax => false,
        _ => !name.Ancestors().Any(a => a is ExpressionColonSyntax or NameColonSyntax),
    };

    private static ISymbol? FindMember(INamedTypeSymbol type, string name)
    {
        for (var scope = type; scope is not null; scope = scope.ContainingType)
        {
            for (var t = scope; t is not null; t = t.BaseType)
            {
                var member = t.GetMembers(name).FirstOrDefault(m => m is not IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor });
                // An outer type's instance members are not in scope of a nested type's code.
                if (member is not null && (scope == type || member.IsStatic || member is ITypeSymbol)) return member;
            }
        }
        return null;
    }

    /** The method's parameters the expression assigns (or passes by ref): they are passed by reference. */
    private static HashSet<string> AssignedParameters(IOperation body, IMethodSymbol method)
    {
        var assigned = new HashSet<string>(StringComparer.Ordinal);
        void Target(IOperation? target)
        {
            // A field of a struct variable is assigned through the variable.
            while (target is IFieldReferenceOperation { Instance: { Type.IsValueType: true } instance }) target = instance;
            if (target is ITupleOperation tuple) foreach (var element in tuple.Elements) Target(element);
            if (target is IParameterReferenceOperation p && SymbolEqualityComparer.Default.Equals(p.Parameter.ContainingSymbol, method)) assigned.Add(p.Parameter.Name);
            // A hidden parameter's local: by reference, its type named (C# then says whether it can be).
            if (target is ILocalReferenceOperation l && ExpressionSource.IsHiddenLocal(l.Local)) assigned.Add(l.Local.Name);
        }
        foreach (var operation in body.DescendantsAndSelf())
        {
            switch (operation)
            {
                case IAssignmentOperation a: Target(a.Target); break;
                case IIncrementOrDecrementOperation a: Target(a.Target); break;
                case IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out } a: Target(a.Value); break;
            }
        }
        return assigned;
    }

    /** The assemblies whose members and types the code uses: the runtime lets it past their access checks. */
    private static HashSet<string> AccessedAssemblies(IOperation body, IEnumerable<ITypeSymbol> parameterTypes)
    {
        var names = new HashSet<string>(StringComparer.Ordinal);
        var seen = new HashSet<ITypeSymbol>(SymbolEqualityComparer.Default);
        void Symbol(ISymbol? symbol)
        {
            if (symbol?.ContainingAssembly is { } assembly && assembly.Name != ExpressionSource.AssemblyName) names.Add(assembly.Name);
        }
        void Type(ITypeSymbol? type)
        {
            if (type is null || !seen.Add(type)) return;
            Symbol(type);
            switch (type)
            {
                case IArrayTypeSymbol array: Type(array.ElementType); break;
                case INamedTypeSymbol named:
                    foreach (var arg in named.TypeArguments) Type(arg);
                    Type(named.ContainingType);
                    break;
            }
        }
        foreach (var type in parameterTypes) Type(type);
        foreach (var operation in body.DescendantsAndSelf())
        {
            Type(operation.Type);
            switch (operation)
            {
                case IMemberReferenceOperation m: Symbol(m.Member); Type(m.Member.ContainingType); break;
                case IInvocationOperation i: Symbol(i.TargetMethod); Type(i.TargetMethod.ContainingType); foreach (var arg in i.TargetMethod.TypeArguments) Type(arg); break;
                case IObjectCreationOperation { Constructor: { } c }: Symbol(c); break;
                case IConversionOperation { OperatorMethod: { } op }: Symbol(op); break;
                case IBinaryOperation { OperatorMethod: { } op }: Symbol(op); break;
                case IUnaryOperation { OperatorMethod: { } op }: Symbol(op); break;
                case ITypeOfOperation t: Type(t.TypeOperand); break;
                case IIsTypeOperation t: Type(t.TypeOperand); break;
                case IDeclarationPatternOperation p: Type(p.MatchedType); break;
                case ITypePatternOperation p: Type(p.MatchedType); break;
                case IRecursivePatternOperation p: Type(p.MatchedType); break;
            }
        }
        return names;
    }

    /** Roslyn's errors, first those in the expression; a name it does not know that is a variable the method could not take says why. */
    private static CompileDiagnostic[] Describe(IEnumerable<Diagnostic> diagnostics, Bound bound, RewrittenExpression expression, IReadOnlyDictionary<string, string> unavailable)
    {
        string Message(Diagnostic d)
        {
            if (d.Id == "CS0103" && d.Location.SourceTree?.GetText().ToString(d.Location.SourceSpan) is { } name && unavailable.TryGetValue(name, out var why)) return why;
            return bound.Mirrors.Readable(d.GetMessage().Replace(ExpressionSource.This, "this", StringComparison.Ordinal));
        }
        var end = bound.ExpressionStart + expression.Text.Length;
        return
        [
            .. diagnostics
                .Where(d => d.Severity == DiagnosticSeverity.Error)
                .Select(d => (Diagnostic: d, At: d.Location.SourceSpan.Start))
                .OrderBy(d => d.At >= bound.ExpressionStart && d.At <= end ? 0 : 1)
                .ThenBy(d => d.At)
                .Take(MaxDiagnostics)
                .Select(d => new CompileDiagnostic(
                    d.Diagnostic.Id,
                    Message(d.Diagnostic),
                    d.At >= bound.ExpressionStart && d.At <= end ? expression.ToOriginal(d.At - bound.ExpressionStart) + 1 : null)),
        ];
    }

    private static CompileResult Failed(CompileDiagnostic[] diagnostics) => new(null, 0, [], null, false, diagnostics, null, []);

    private static int MethodToken(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        var reader = pe.GetMetadataReader();
        foreach (var handle in reader.MethodDefinitions)
        {
            if (reader.GetString(reader.GetMethodDefinition(handle).Name) == ExpressionSource.MethodName) return MetadataTokens.GetToken(handle);
        }
        throw new WorkerException("EMIT_FAILED", "the compiled assembly has no evaluation method");
    }
}
