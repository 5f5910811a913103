-- Neovim's own LSP client against `klint server`: it opens a racy shader
-- (unsaved text: the file on disk is clean), receives the finding, applies
-- the "suppress on this line" code action and sees the finding cleared.
-- Run by neovim_lsp.sh with KLINT (the binary) and KLINT_DIR (a scratch
-- folder holding k.comp) in the environment. Written for Neovim 0.7, Debian
-- 12's, and later: vim.lsp.start_client and buf_attach_client.
local klint, dir = os.getenv("KLINT"), os.getenv("KLINT_DIR")

local function check(condition, message)
  if not condition then error(message, 2) end
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(dir .. "/k.comp"))
  local buf = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, {
    "#version 450",
    "layout(local_size_x = 64) in;",
    "layout(binding = 0) buffer Data { float x[]; };",
    "shared float tile[64];",
    "void main() {",
    "    uint tid = gl_LocalInvocationID.x;",
    "    tile[tid] = x[gl_GlobalInvocationID.x];",
    "    memoryBarrierShared();",
    "    x[gl_GlobalInvocationID.x] = tile[(tid + 1) % 64];",
    "}",
  })
  local client_id = vim.lsp.start_client({ name = "klint", cmd = { klint, "server" }, root_dir = dir })
  check(client_id, "the client did not start")
  vim.lsp.buf_attach_client(buf, client_id)
  check(vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20), "no diagnostics came")

  local diagnostics = vim.diagnostic.get(buf)
  check(#diagnostics == 1, "expected one diagnostic, got " .. vim.inspect(diagnostics))
  local found = diagnostics[1]
  local lsp = found.user_data and found.user_data.lsp or {}
  local code = found.code or lsp.code
  check(code == "insufficient-barrier", "the code: " .. vim.inspect(found))
  check(found.source == "klint" or lsp.source == "klint", "the source: " .. vim.inspect(found))
  check(found.lnum == 7, "the line: " .. vim.inspect(found))

  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = found.lnum, character = found.col }, ["end"] = { line = found.end_lnum, character = found.end_col } },
    context = { diagnostics = { lsp } },
  }
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000)
  local action
  for _, response in pairs(responses or {}) do
    for _, candidate in ipairs(response.result or {}) do
      if candidate.title == "Suppress insufficient-barrier on this line" then action = candidate end
    end
  end
  check(action, "no suppression action in " .. vim.inspect(responses))
  vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  check(vim.api.nvim_buf_get_lines(buf, 7, 8, false)[1] == "    // klint-ignore-next-line: insufficient-barrier",
        "the edit: " .. vim.inspect(vim.api.nvim_buf_get_lines(buf, 0, -1, false)))
  -- The client sends the edit as didChange; the server lints it and clears the finding.
  check(vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 20),
        "the finding stayed: " .. vim.inspect(vim.diagnostic.get(buf)))
  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end

local ok, message = pcall(run)
if ok then
  io.stdout:write("neovim_lsp: the finding came, and went with the suppression\n")
  vim.cmd("qall!")
else
  io.stderr:write("neovim_lsp: " .. tostring(message) .. "\n")
  vim.cmd("cquit 1")
end
