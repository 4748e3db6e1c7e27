// One debugging session's Edit and Continue state: a workspace holding the program's modules as they
// were built (one project per module, from its build record) and Roslyn's session over it. Each update
// reads the source files as they are on disk now, asks Roslyn for the deltas, and waits for the
// debugger to say whether the runtime took them (commit) or not (discard).
using System.Collections.Concurrent;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Host.Mef;
using Microsoft.CodeAnalysis.Text;

namespace DebugBridge.Worker.Enc;

public sealed class EncSessions
{
    private readonly ConcurrentDictionary<string, EncSession> _sessions = new();

    public async Task<UpdateResult> Update(UpdateRequest request)
    {
        var session = _sessions.GetOrAdd(request.Session, _ => new EncSession());
        return await session.Update(request);
    }

    public object Commit(SessionRequest request) => Existing(request).Commit();

    public object Discard(SessionRequest request) => Existing(request).Discard();

    public object End(SessionRequest request)
    {
        if (_sessions.TryRemove(request.Session, out var session)) session.Dispose();
        return new { ended = session is not null };
    }

    private EncSession Existing(SessionRequest request) =>
        _sessions.TryGetValue(request.Session, out var session) ? session : throw new WorkerException("NO_SESSION", $"no Edit and Continue session {request.Session}");
}

public sealed class EncSession : IDebuggerState, IDisposable
{
    private static readonly Lazy<MefHostServices> Host = new(() => MefHostServices.Create(MefHostServices.DefaultAssemblies));

    private readonly SemaphoreSlim _gate = new(1, 1);
    private readonly AdhocWorkspace _workspace = new(Host.Value);
    private readonly Dictionary<string, ModuleProject> _modules = new(StringComparer.Ordinal);
    private RoslynEnc? _enc;
    private object? _session;
    /** The sources Roslyn's session holds now; `_pending` becomes it on commit. */
    private Solution _committed = null!;
    private Solution? _pending;
    private ImmutableArray<string> _capabilities = [];
    private IReadOnlyList<ActiveStatementInput> _active = [];

    public ImmutableArray<string> Capabilities => _capabilities;
    public IReadOnlyList<ActiveStatementInput> ActiveStatements => _active;

    public Guid ModuleId(string modulePath) => _modules.TryGetValue(modulePath, out var m) ? m.Record.Mvid : Guid.Empty;

    public async Task<UpdateResult> Update(UpdateRequest request)
    {
        await _gate.WaitAsync();
        try
        {
            var notes = new List<string>();
            if (_session is null) await Start(request, notes);
            else if (_pending is not null) DropPending();
            _capabilities = [.. request.Capabilities];
            _active = request.ActiveStatements ?? [];
            _enc!.BreakState(_session!);

            var (solution, changed) = ReadEdits(request.Files);
            if (changed.Length == 0) return new UpdateResult("none", [], [], [], [.. notes]);
            var results = await _enc.Emit(_session!, solution, _modules.Values.First().ProjectId);
            var diagnostics = results.Diagnostics.Select(Diagnostics.Describe).ToArray();
            // Rude edits leave the status ready for the modules they do not block; one module each here.
            var blocked = results.Status is not ("ready" or "none") || diagnostics.Any(d => d.Severity == "error");
            if (blocked || results.Updates.Count == 0)
            {
                // An edit without effect (a comment, whitespace) leaves Roslyn no update to discard.
                if (results.Status == "none") ForgetRead();
                else DropPending();
                return new UpdateResult(blocked ? "blocked" : "none", [], diagnostics, changed, [.. notes]);
            }
            _pending = solution;
            return new UpdateResult("ready", [.. results.Updates.Select(Describe)], diagnostics, changed, [.. notes]);
        }
        finally
        {
            _gate.Release();
        }
    }

    public object Commit()
    {
        _gate.Wait();
        try
        {
            if (_pending is null) throw new WorkerException("NOTHING_PENDING", "no update waits to be committed");
            _enc!.Commit(_session!);
            _committed = _pending;
            foreach (var module in _modules.Values) module.Committed();
            _pending = null;
            return new { committed = true };
        }
        finally
        {
            _gate.Release();
        }
    }

    public object Discard()
    {
        _gate.Wait();
        try
        {
            if (_pending is not null) DropPending();
            return new { discarded = true };
        }
        finally
        {
            _gate.Release();
        }
    }

    private void DropPending()
    {
        _enc!.Discard(_session!);
        ForgetRead();
    }

    /** The files read for this update are again what differs from the last applied. */
    private void ForgetRead()
    {
        foreach (var module in _modules.Values) module.Discarded();
        _pending = null;
    }

    public void Dispose()
    {
        if (_session is not null) _enc?.End(_session);
        _workspace.Dispose();
    }

    private async Task Start(UpdateRequest request, List<string> notes)
    {
        var solution = _workspace.CurrentSolution;
        foreach (var input in request.Modules)
        {
            var module = ModuleProject.Create(input, notes);
            _modules[input.Path] = module;
            solution = solution.AddProject(module.Info);
        }
        if (!_workspace.TryApplyChanges(solution)) throw new WorkerException("WORKSPACE_FAILED", "the program's sources could not be loaded into the workspace");
        _committed = _workspace.CurrentSolution;
        await RoslynEnc.Hydrate(_committed);
        _enc = new RoslynEnc(_workspace);
        _session = _enc.StartSession(_committed, this);
    }

    /** The committed sources with every document whose file changed on disk since replaced. */
    private (Solution, string[]) ReadEdits(string[]? files)
    {
        var only = files?.Select(Path.GetFullPath).ToHashSet(StringComparer.Ordinal);
        var solution = _committed;
        var changed = new List<string>();
        foreach (var module in _modules.Values)
        {
            foreach (var (documentId, path) in module.Documents)
            {
                if (only is not null && !only.Contains(path)) continue;
                var bytes = module.ChangedOnDisk(path);
                if (bytes is null) continue;
                solution = solution.WithDocumentText(documentId, SourceText.From(new MemoryStream(bytes), System.Text.Encoding.UTF8, SourceHashAlgorithm.Sha256));
                changed.Add(path);
            }
        }
        return (solution, [.. changed]);
    }

    private ModuleDeltaOutput Describe(EncUpdate update)
    {
        var module = _modules.Values.First(m => m.Record.Mvid == update.Module);
        var symbols = module.Generations.Add(update.Metadata, update.Pdb);
        return new ModuleDeltaOutput(
            module.Record.ModulePath,
            update.Module.ToString(),
            Convert.ToBase64String(update.Metadata),
            Convert.ToBase64String(update.Il),
            Convert.ToBase64String(update.Pdb),
            update.UpdatedMethods,
            update.UpdatedTypes,
            update.RequiredCapabilities,
            symbols.Methods,
            symbols.AddedTypes,
            [.. update.LineUpdates.Select(f => new LineUpdateOutput(f.File, [.. f.Lines.Select(l => new[] { l.Old, l.New })]))],
            [.. update.ActiveStatements]);
    }
}
