// Roslyn's own Edit and Continue service (Microsoft.CodeAnalysis.Features, the one Visual Studio and
// dotnet-watch use: rude-edit analysis with ENC diagnostics, active statements, lambdas and closures,
// the runtime's capabilities) is internal to Roslyn. This file is the one place that reaches it, by
// reflection against the pinned package version (EncWorker.csproj), and turns its types into ours.
using System.Collections;
using System.Collections.Immutable;
using System.Linq.Expressions;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host;

namespace DebugBridge.Worker.Enc;

/** What the debugger tells Roslyn: the runtime's capabilities and the frames running the module's code. */
public interface IDebuggerState
{
    ImmutableArray<string> Capabilities { get; }
    IReadOnlyList<ActiveStatementInput> ActiveStatements { get; }
    Guid ModuleId(string modulePath);
}

public sealed record EncUpdate(
    Guid Module,
    byte[] Metadata,
    byte[] Il,
    byte[] Pdb,
    int[] UpdatedMethods,
    int[] UpdatedTypes,
    string[] RequiredCapabilities,
    IReadOnlyList<(string File, IReadOnlyList<(int Old, int New)> Lines)> LineUpdates,
    IReadOnlyList<ActiveStatementOutput> ActiveStatements);

public sealed record EncResults(string Status, IReadOnlyList<EncUpdate> Updates, IReadOnlyList<Diagnostic> Diagnostics);

public sealed class RoslynEnc
{
    private static readonly Assembly Features = typeof(Microsoft.CodeAnalysis.Completion.CompletionService).Assembly;
    private const string Enc = "Microsoft.CodeAnalysis.EditAndContinue.";
    private const string Contracts = "Microsoft.CodeAnalysis.Contracts.EditAndContinue.";
    private const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;

    private static readonly Type ServiceType = FeatureType(Enc + "IEditAndContinueService");
    private static readonly Type SpanProviderType = FeatureType(Enc + "ActiveStatementSpanProvider");
    private static readonly Type RunningOptionsType = FeatureType(Enc + "RunningProjectOptions");
    private static readonly Delegate NoSpans = EmptyAnswer(SpanProviderType);

    private readonly object _service;

    public RoslynEnc(Workspace workspace)
    {
        var workspaceServiceType = FeatureType(Enc + "IEditAndContinueWorkspaceService");
        var getService = typeof(HostWorkspaceServices).GetMethod(nameof(HostWorkspaceServices.GetService))!.MakeGenericMethod(workspaceServiceType);
        var workspaceService = getService.Invoke(workspace.Services, null)
            ?? throw new WorkerException("ROSLYN_ENC_MISSING", "Roslyn's Edit and Continue service is not in the workspace's composition");
        _service = Property(workspaceService, "Service")!;
    }

    public static Task Hydrate(Solution solution) =>
        AsTask(FeatureType(Enc + "EditAndContinueService").GetMethod("HydrateDocumentsAsync", Any)!.Invoke(null, [solution, CancellationToken.None])!);

    public object StartSession(Solution solution, IDebuggerState debugger)
    {
        var debuggerService = DebuggerServiceProxy.Create(debugger);
        var sourceProvider = NoMatchingSourceProxy.Create();
        return Call("StartDebuggingSession", solution, debuggerService, sourceProvider, false)!;
    }

    /** A new stop, or new capabilities: Roslyn reads the active statements and capabilities again. */
    public void BreakState(object session) => Call("BreakStateOrCapabilitiesChanged", session, (bool?)true);

    public void Commit(object session) => Call("CommitSolutionUpdate", session);

    public void Discard(object session) => Call("DiscardSolutionUpdate", session);

    public void End(object session) => Call("EndDebuggingSession", session);

    public async Task<EncResults> Emit(object session, Solution solution, ProjectId running)
    {
        var options = Activator.CreateInstance(RunningOptionsType)!;
        RunningOptionsType.GetProperty("RestartWhenChangesHaveNoEffect")!.SetValue(options, false);
        var create = typeof(ImmutableDictionary).GetMethods().First(m => m.Name == nameof(ImmutableDictionary.Create) && m.GetParameters().Length == 0)
            .MakeGenericMethod(typeof(ProjectId), RunningOptionsType);
        var dictionary = create.Invoke(null, null)!;
        dictionary = dictionary.GetType().GetMethod("Add")!.Invoke(dictionary, [running, options])!;

        var pending = Call("EmitSolutionUpdateAsync", session, solution, dictionary, NoSpans, CancellationToken.None)!;
        var results = await AsTaskOf(pending);
        var moduleUpdates = Property(results, "ModuleUpdates")!;
        var status = Property(moduleUpdates, "Status")!.ToString()!.ToLowerInvariant();
        var diagnostics = ((IEnumerable<Diagnostic>)results.GetType().GetMethod("GetAllDiagnostics", Any)!.Invoke(results, null)!).ToList();
        if (Property(results, "SyntaxError") is Diagnostic syntax && !diagnostics.Contains(syntax)) diagnostics.Add(syntax);
        var updates = new List<EncUpdate>();
        foreach (var update in (IEnumerable)Property(moduleUpdates, "Updates")!)
        {
            updates.Add(new EncUpdate(
                (Guid)Property(update, "Module")!,
                Bytes(Property(update, "MetadataDelta")),
                Bytes(Property(update, "ILDelta")),
                Bytes(Property(update, "PdbDelta")),
                [.. (IEnumerable<int>)Property(update, "UpdatedMethods")!],
                [.. (IEnumerable<int>)Property(update, "UpdatedTypes")!],
                [.. (IEnumerable<string>)Property(update, "RequiredCapabilities")!],
                LineUpdates(Property(update, "SequencePoints")!),
                ActiveStatementUpdates(Property(update, "ActiveStatements")!)));
        }
        return new EncResults(status, updates, diagnostics);
    }

    private static List<(string, IReadOnlyList<(int, int)>)> LineUpdates(object sequencePoints)
    {
        var files = new List<(string, IReadOnlyList<(int, int)>)>();
        foreach (var file in (IEnumerable)sequencePoints)
        {
            var lines = ((IEnumerable)Property(file, "LineUpdates")!).Cast<object>()
                .Select(l => ((int)Property(l, "OldLine")! + 1, (int)Property(l, "NewLine")! + 1)).ToList();
            files.Add(((string)Property(file, "FileName")!, lines));
        }
        return files;
    }

    private static List<ActiveStatementOutput> ActiveStatementUpdates(object activeStatements)
    {
        var list = new List<ActiveStatementOutput>();
        foreach (var statement in (IEnumerable)activeStatements)
        {
            var method = Property(statement, "Method")!;
            var span = Property(statement, "NewSpan")!;
            list.Add(new ActiveStatementOutput(
                (int)Property(method, "Token")!,
                (int)Property(method, "Version")!,
                (int)Property(statement, "ILOffset")!,
                new Span((int)Property(span, "StartLine")! + 1, (int)Property(span, "StartColumn")! + 1, (int)Property(span, "EndLine")! + 1, (int)Property(span, "EndColumn")! + 1)));
        }
        return list;
    }

    private object? Call(string name, params object?[] args) =>
        ServiceType.GetMethod(name, Any)!.Invoke(_service, args);

    internal static Type FeatureType(string name) =>
        Features.GetType(name) ?? throw new WorkerException("ROSLYN_ENC_MISSING", $"Roslyn {Features.GetName().Version} has no {name}: the worker was built for another version");

    internal static object? Property(object target, string name) =>
        target.GetType().GetProperty(name, Any)?.GetValue(target) ?? target.GetType().GetField(name, Any)?.GetValue(target);

    private static byte[] Bytes(object? immutableArray) => immutableArray is IEnumerable<byte> bytes ? [.. bytes] : [];

    /** ValueTask or ValueTask<T> → Task. */
    private static Task AsTask(object valueTask) => (Task)valueTask.GetType().GetMethod("AsTask")!.Invoke(valueTask, null)!;

    private static async Task<object> AsTaskOf(object valueTask)
    {
        var task = AsTask(valueTask);
        await task.ConfigureAwait(false);
        return task.GetType().GetProperty("Result")!.GetValue(task)!;
    }

    /** A delegate of an internal type that answers an empty array at once. */
    private static Delegate EmptyAnswer(Type delegateType)
    {
        var invoke = delegateType.GetMethod("Invoke")!;
        var parameters = invoke.GetParameters().Select(p => Expression.Parameter(p.ParameterType, p.Name)).ToArray();
        var arrayType = invoke.ReturnType.GetGenericArguments()[0];
        var body = Expression.New(invoke.ReturnType.GetConstructor([arrayType])!, Expression.Field(null, arrayType.GetField("Empty")!));
        return Expression.Lambda(delegateType, body, parameters).Compile();
    }

    /** Internal values Roslyn's contracts take, built by reflection. */
    internal static class Values
    {
        public static object ValueTaskOf(Type resultType, object? result) =>
            Activator.CreateInstance(typeof(ValueTask<>).MakeGenericType(resultType), result)!;

        public static object ImmutableArrayOf(Type elementType, IEnumerable<object> items)
        {
            var array = Array.CreateInstance(elementType, items.Count());
            var i = 0;
            foreach (var item in items) array.SetValue(item, i++);
            var create = typeof(ImmutableArray).GetMethods().First(m => m.Name == nameof(ImmutableArray.Create) && m.GetParameters() is [{ ParameterType.IsArray: true }])
                .MakeGenericMethod(elementType);
            return create.Invoke(null, [array])!;
        }

        public static object New(string contractType, params object?[] args) =>
            Activator.CreateInstance(FeatureType(Contracts + contractType), BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance, null, args, null)!;

        public static object Enum(string contractType, string name) => System.Enum.Parse(FeatureType(Contracts + contractType), name);
    }
}

/** Roslyn's view of the debugger (IManagedHotReloadService): capabilities, active statements, availability. */
public class DebuggerServiceProxy : DispatchProxy
{
    private IDebuggerState _state = null!;

    public static object Create(IDebuggerState state)
    {
        var proxy = (DebuggerServiceProxy)DispatchProxy.Create(RoslynEnc.FeatureType("Microsoft.CodeAnalysis.Contracts.EditAndContinue.IManagedHotReloadService"), typeof(DebuggerServiceProxy));
        proxy._state = state;
        return proxy;
    }

    protected override object? Invoke(MethodInfo? method, object?[]? args)
    {
        switch (method?.Name)
        {
            case "GetCapabilitiesAsync":
                return new ValueTask<ImmutableArray<string>>(_state.Capabilities);
            case "GetAvailabilityAsync":
            {
                var available = RoslynEnc.Values.New("ManagedHotReloadAvailability", RoslynEnc.Values.Enum("ManagedHotReloadAvailabilityStatus", "Available"), null);
                return RoslynEnc.Values.ValueTaskOf(available.GetType(), available);
            }
            case "PrepareModuleForUpdateAsync":
                return ValueTask.CompletedTask;
            case "GetActiveStatementsAsync":
            {
                var elementType = RoslynEnc.FeatureType("Microsoft.CodeAnalysis.Contracts.EditAndContinue.ManagedActiveStatementDebugInfo");
                var items = _state.ActiveStatements.Select(ActiveStatement).ToList();
                var array = RoslynEnc.Values.ImmutableArrayOf(elementType, items);
                return RoslynEnc.Values.ValueTaskOf(array.GetType(), array);
            }
            default:
                throw new NotSupportedException($"IManagedHotReloadService.{method?.Name}");
        }
    }

    private object ActiveStatement(ActiveStatementInput s)
    {
        var methodId = RoslynEnc.Values.New("ManagedMethodId", _state.ModuleId(s.Module), s.Token, s.Version);
        var instruction = RoslynEnc.Values.New("ManagedInstructionId", methodId, s.IlOffset);
        var span = RoslynEnc.Values.New("SourceSpan", s.StartLine - 1, s.StartColumn - 1, s.EndLine - 1, s.EndColumn - 1);
        var flagsType = RoslynEnc.FeatureType("Microsoft.CodeAnalysis.Contracts.EditAndContinue.ActiveStatementFlags");
        var flags = 0;
        int Flag(string name) => (int)Enum.Parse(flagsType, name);
        flags |= s.Leaf ? Flag("LeafFrame") : Flag("NonLeafFrame");
        if (s.Partial) flags |= Flag("PartiallyExecuted");
        flags |= s.Stale ? Flag("Stale") : Flag("MethodUpToDate");
        return RoslynEnc.Values.New("ManagedActiveStatementDebugInfo", instruction, s.Document, span, Enum.ToObject(flagsType, flags));
    }
}

/** No editor history to recover built sources from: the session starts from the sources as built. */
public class NoMatchingSourceProxy : DispatchProxy
{
    public static object Create() =>
        DispatchProxy.Create(RoslynEnc.FeatureType("Microsoft.CodeAnalysis.EditAndContinue.IPdbMatchingSourceTextProvider"), typeof(NoMatchingSourceProxy));

    protected override object? Invoke(MethodInfo? method, object?[]? args) => new ValueTask<string?>((string?)null);
}
