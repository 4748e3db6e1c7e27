// The worker's main loop: one JSON request a line on stdin, one JSON answer a line on stdout, each
// answer carrying its request's id. Requests run concurrently; stdout carries nothing else (logs go
// to stderr). The worker ends when stdin closes: it never outlives the server that started it.
using System.Text.Json;
using System.Text.Json.Nodes;
using DebugBridge.Worker;

var stdout = Console.OpenStandardOutput();
var writeLock = new SemaphoreSlim(1, 1);
var handlers = new RequestHandlers();

async Task Answer(JsonObject message)
{
    var bytes = JsonSerializer.SerializeToUtf8Bytes(message, Protocol.Json);
    await writeLock.WaitAsync();
    try
    {
        await stdout.WriteAsync(bytes);
        stdout.WriteByte((byte)'\n');
        await stdout.FlushAsync();
    }
    finally
    {
        writeLock.Release();
    }
}

async Task Handle(string line)
{
    JsonNode? id = null;
    try
    {
        var request = JsonNode.Parse(line)!.AsObject();
        id = request["id"]?.DeepClone();
        var method = request["method"]?.GetValue<string>() ?? "";
        var result = await handlers.Run(method, request["params"] as JsonObject ?? new JsonObject());
        await Answer(new JsonObject { ["id"] = id, ["result"] = result });
    }
    catch (Exception e)
    {
        var (code, message) = e is WorkerException w ? (w.Code, w.Message) : ("WORKER_FAILED", $"{e.GetType().Name}: {e.Message}");
        if (e is not WorkerException) Console.Error.WriteLine($"debugbridge worker: {e}");
        await Answer(new JsonObject { ["id"] = id, ["error"] = new JsonObject { ["code"] = code, ["message"] = message } });
    }
}

using var input = new StreamReader(Console.OpenStandardInput());
var running = new List<Task>();
while (await input.ReadLineAsync() is { } line)
{
    if (line.Length == 0) continue;
    running.Add(Task.Run(() => Handle(line)));
    running.RemoveAll(t => t.IsCompleted);
}
await Task.WhenAll(running);
