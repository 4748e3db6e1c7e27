// A module's metadata generations (as built, then each applied delta) and what each delta's PDB says
// about the methods it gives new bodies: their sequence points and local variables, and the names of
// methods and types it adds, so the debugger host's symbols follow the program's code.
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace DebugBridge.Worker.Enc;

public sealed record DeltaSymbols(MethodOutput[] Methods, TypeOutput[] AddedTypes);

public sealed class ModuleGenerations
{
    private readonly List<MetadataReaderProvider> _readers = [];
    private MetadataReaderProvider? _pending;
    /** Rows of MethodDef and TypeDef in all applied generations (a delta's rows also repeat updated ones). */
    private int _methodCount;
    private int _typeCount;
    private (int Methods, int Types) _pendingCounts;

    public ModuleGenerations(string modulePath)
    {
        using var pe = new PEReader(File.OpenRead(modulePath));
        var block = pe.GetMetadata();
        var provider = MetadataReaderProvider.FromMetadataImage(block.GetContent());
        _readers.Add(provider);
        _methodCount = provider.GetMetadataReader().GetTableRowCount(TableIndex.MethodDef);
        _typeCount = provider.GetMetadataReader().GetTableRowCount(TableIndex.TypeDef);
    }

    public DeltaSymbols Add(byte[] metadataDelta, byte[] pdbDelta)
    {
        _pending?.Dispose();
        _pending = MetadataReaderProvider.FromMetadataImage([.. metadataDelta]);
        var delta = _pending.GetMetadataReader();
        var generations = _readers.Select(r => r.GetMetadataReader()).Append(delta).ToList();
        var aggregator = new MetadataAggregator(generations[0], generations.Skip(1).ToList());
        string Text(StringHandle handle)
        {
            if (handle.IsNil) return "";
            var local = aggregator.GetGenerationHandle(handle, out var generation);
            return generations[generation].GetString((StringHandle)local);
        }

        var map = delta.GetEditAndContinueMapEntries().ToList();
        var methodRows = map.Where(h => h.Kind == HandleKind.MethodDefinition).ToList();
        var typeRows = map.Where(h => h.Kind == HandleKind.TypeDefinition).ToList();
        var (methodCount, typeCount) = (_methodCount, _typeCount);
        _pendingCounts = (
            methodRows.Select(h => MetadataTokens.GetRowNumber(h)).Append(methodCount).Max(),
            typeRows.Select(h => MetadataTokens.GetRowNumber(h)).Append(typeCount).Max());

        // EncLog: "add a method to this type" precedes the new method's own row.
        var declaring = new Dictionary<int, int>();
        var lastType = 0;
        foreach (var entry in delta.GetEditAndContinueLogEntries())
        {
            if (entry.Operation == EditAndContinueOperation.AddMethod) lastType = MetadataTokens.GetToken(entry.Handle);
            else if (entry.Handle.Kind == HandleKind.MethodDefinition && lastType != 0)
            {
                declaring[MetadataTokens.GetToken(entry.Handle)] = lastType;
                lastType = 0;
            }
        }
        var names = new Dictionary<int, string>();
        for (var i = 0; i < methodRows.Count; i++)
        {
            var row = delta.GetMethodDefinition(MetadataTokens.MethodDefinitionHandle(i + 1));
            names[MetadataTokens.GetToken(methodRows[i])] = Text(row.Name);
        }
        var addedTypes = new List<TypeOutput>();
        var enclosing = new Dictionary<int, int>();
        for (var i = 0; i < typeRows.Count; i++)
        {
            var token = MetadataTokens.GetToken(typeRows[i]);
            if (MetadataTokens.GetRowNumber(typeRows[i]) <= typeCount) continue;
            var row = delta.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(i + 1));
            var outer = row.GetDeclaringType();
            addedTypes.Add(new TypeOutput(token, Text(row.Name), Text(row.Namespace), outer.IsNil ? 0 : MetadataTokens.GetToken(outer)));
        }

        var methods = ReadPdbDelta(pdbDelta, names, declaring, methodCount);
        return new DeltaSymbols(methods, [.. addedTypes]);
    }

    public void Commit()
    {
        if (_pending is not null)
        {
            _readers.Add(_pending);
            (_methodCount, _typeCount) = _pendingCounts;
        }
        _pending = null;
    }

    public void Drop()
    {
        _pending?.Dispose();
        _pending = null;
    }

    private static MethodOutput[] ReadPdbDelta(byte[] pdbDelta, Dictionary<int, string> names, Dictionary<int, int> declaring, int methodCount)
    {
        using var provider = MetadataReaderProvider.FromPortablePdbImage([.. pdbDelta]);
        var pdb = provider.GetMetadataReader();
        var rows = pdb.GetEditAndContinueMapEntries().Where(h => h.Kind == HandleKind.MethodDebugInformation).ToList();
        var scopes = new Dictionary<int, List<ScopeOutput>>();
        foreach (var handle in pdb.LocalScopes)
        {
            var scope = pdb.GetLocalScope(handle);
            var variables = scope.GetLocalVariables().Select(v => pdb.GetLocalVariable(v))
                .Select(v => new LocalOutput(v.Index, pdb.GetString(v.Name), (v.Attributes & LocalVariableAttributes.DebuggerHidden) != 0)).ToArray();
            // A delta's LocalScope rows name their method by its row in this delta's MethodDebugInformation.
            var row = MetadataTokens.GetRowNumber(scope.Method);
            if (!scopes.TryGetValue(row, out var list)) scopes[row] = list = [];
            list.Add(new ScopeOutput(scope.StartOffset, scope.EndOffset, variables));
        }
        // Like LocalScope, a delta's custom debug information names its method by the delta's row.
        var customInfo = new Dictionary<int, Dictionary<string, string>>();
        foreach (var handle in pdb.CustomDebugInformation)
        {
            var info = pdb.GetCustomDebugInformation(handle);
            if (info.Parent.Kind != HandleKind.MethodDefinition) continue;
            var row = MetadataTokens.GetRowNumber(info.Parent);
            if (!customInfo.TryGetValue(row, out var kinds)) customInfo[row] = kinds = [];
            kinds[pdb.GetGuid(info.Kind).ToString()] = Convert.ToBase64String(pdb.GetBlobBytes(info.Value));
        }
        var methods = new List<MethodOutput>();
        for (var i = 0; i < rows.Count; i++)
        {
            var token = 0x06000000 | MetadataTokens.GetRowNumber(rows[i]);
            var info = pdb.GetMethodDebugInformation(MetadataTokens.MethodDebugInformationHandle(i + 1));
            var points = info.SequencePointsBlob.IsNil ? [] : info.GetSequencePoints().Select(p => new SequencePointOutput(
                p.Offset, pdb.GetString(pdb.GetDocument(p.Document).Name), p.StartLine, p.StartColumn, p.EndLine, p.EndColumn, p.IsHidden)).ToArray();
            methods.Add(new MethodOutput(token, names.GetValueOrDefault(token, ""), declaring.GetValueOrDefault(token), (token & 0xffffff) > methodCount, points, [.. scopes.GetValueOrDefault(i + 1) ?? []], customInfo.GetValueOrDefault(i + 1) ?? []));
        }
        return [.. methods];
    }
}
