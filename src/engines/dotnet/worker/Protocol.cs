// What the worker says on the wire: JSON with camelCase names, byte arrays as base64.
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using DebugBridge.Worker.Enc;
using DebugBridge.Worker.Eval;

namespace DebugBridge.Worker;

public static class Protocol
{
    public static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web)
    {
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    public static T Read<T>(JsonObject node) =>
        node.Deserialize<T>(Json) ?? throw new WorkerException("INVALID_REQUEST", $"the request has no {typeof(T).Name}");

    public static JsonNode? Write<T>(T value) => JsonSerializer.SerializeToNode(value, Json);
}

/** A failure the caller can act on: its code is stable. */
public sealed class WorkerException(string code, string message) : Exception(message)
{
    public string Code { get; } = code;
}

/** Dispatches requests by method name. */
public sealed class RequestHandlers
{
    private readonly EncSessions _enc = new();
    private readonly ExpressionCompiler _eval = new();

    public async Task<JsonNode?> Run(string method, JsonObject parameters) => method switch
    {
        "hello" => Protocol.Write(new { worker = "debugbridge-enc", roslyn = typeof(Microsoft.CodeAnalysis.Compilation).Assembly.GetName().Version?.ToString(), runtime = Environment.Version.ToString() }),
        "enc.update" => Protocol.Write(await _enc.Update(Protocol.Read<UpdateRequest>(parameters))),
        "enc.commit" => Protocol.Write(_enc.Commit(Protocol.Read<SessionRequest>(parameters))),
        "enc.discard" => Protocol.Write(_enc.Discard(Protocol.Read<SessionRequest>(parameters))),
        "eval.warm" => Protocol.Write(_eval.Warm()),
        "eval.compile" => Protocol.Write(_eval.Compile(Protocol.Read<CompileRequest>(parameters))),
        "enc.end" => Protocol.Write(_enc.End(Protocol.Read<SessionRequest>(parameters))),
        _ => throw new WorkerException("UNKNOWN_METHOD", $"the worker has no method {method}"),
    };
}
