// One module of the program as a Roslyn project: its sources as they were built (the bytes the host
// kept from load time for files edited since, embedded sources, else the files themselves) and the
// bytes of each file as last applied, to tell which files changed on disk.
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace DebugBridge.Worker.Enc;

public sealed class ModuleProject
{
    private readonly Dictionary<string, byte[]> _applied = new(StringComparer.Ordinal);
    private readonly Dictionary<string, byte[]> _pending = new(StringComparer.Ordinal);

    private ModuleProject(BuildRecord record, ProjectInfo info, List<(DocumentId, string)> documents, ModuleGenerations generations)
    {
        Record = record;
        Info = info;
        Documents = documents;
        Generations = generations;
    }

    public BuildRecord Record { get; }
    public ProjectInfo Info { get; }
    public ProjectId ProjectId => Info.Id;
    public IReadOnlyList<(DocumentId Id, string Path)> Documents { get; }
    public ModuleGenerations Generations { get; }

    public static ModuleProject Create(ModuleInput input, List<string> notes)
    {
        var record = BuildRecord.Read(input.Path);
        var (references, missing) = ReferenceLocator.Locate(record);
        if (missing.Count > 0) notes.Add($"{Path.GetFileName(input.Path)}: references not found, edits using them will not compile: {string.Join(", ", missing.Take(5))}{(missing.Count > 5 ? ", …" : "")}");
        var projectId = ProjectId.CreateNewId(record.AssemblyName);
        var documents = new List<(DocumentId, string)>();
        var infos = new List<DocumentInfo>();
        var applied = new Dictionary<string, byte[]>(StringComparer.Ordinal);
        foreach (var source in record.Documents)
        {
            var original = input.Originals?.GetValueOrDefault(source.Path) is { } b64 ? Convert.FromBase64String(b64) : null;
            var bytes = source.Embedded ?? original ?? (File.Exists(source.Path) ? File.ReadAllBytes(source.Path) : null);
            if (bytes is null)
            {
                notes.Add($"{source.Path} is gone: it was compiled into {Path.GetFileName(input.Path)}");
                continue;
            }
            var text = SourceText.From(new MemoryStream(bytes), Encoding.UTF8, source.Algorithm == SourceHashAlgorithm.None ? SourceHashAlgorithm.Sha256 : source.Algorithm);
            var id = DocumentId.CreateNewId(projectId, source.Path);
            infos.Add(DocumentInfo.Create(id, Path.GetFileName(source.Path), loader: TextLoader.From(TextAndVersion.Create(text, VersionStamp.Create(), source.Path)), filePath: source.Path));
            documents.Add((id, source.Path));
            applied[source.Path] = bytes;
        }
        var info = ProjectInfo.Create(
                projectId,
                VersionStamp.Create(),
                record.AssemblyName,
                record.AssemblyName,
                LanguageNames.CSharp,
                filePath: Path.Combine(Path.GetDirectoryName(input.Path)!, record.AssemblyName + ".csproj"),
                compilationOptions: record.CompilationOptions(),
                parseOptions: record.ParseOptions(),
                documents: infos,
                metadataReferences: references)
            .WithCompilationOutputInfo(default(CompilationOutputInfo).WithAssemblyPath(input.Path));
        var project = new ModuleProject(record, info, documents, new ModuleGenerations(input.Path));
        foreach (var (path, bytes) in applied) project._applied[path] = bytes;
        return project;
    }

    /** The file's bytes when they differ from those last applied (kept as pending), else null. */
    public byte[]? ChangedOnDisk(string path)
    {
        if (!File.Exists(path)) return null;
        var bytes = File.ReadAllBytes(path);
        if (_applied.TryGetValue(path, out var applied) && applied.AsSpan().SequenceEqual(bytes)) return null;
        _pending[path] = bytes;
        return bytes;
    }

    public void Committed()
    {
        foreach (var (path, bytes) in _pending) _applied[path] = bytes;
        _pending.Clear();
        Generations.Commit();
    }

    public void Discarded()
    {
        _pending.Clear();
        Generations.Drop();
    }
}
