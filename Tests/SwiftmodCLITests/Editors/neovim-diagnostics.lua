-- Neovim's built-in LSP client (0.7 and later), headless: opens $FILE, starts `$SWIFTMOD lsp`,
-- waits for its diagnostics and writes them to $OUT as `line:column severity message` (0-based).
local swiftmod, file, out = os.getenv('SWIFTMOD'), os.getenv('FILE'), os.getenv('OUT')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local client = vim.lsp.start_client({ name = 'swiftmod', cmd = { swiftmod, 'lsp' }, root_dir = vim.fn.fnamemodify(file, ':h') })
vim.lsp.buf_attach_client(0, client)
vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format('%d:%d %d %s', d.lnum, d.col, d.severity, d.message))
end
vim.fn.writefile(lines, out)
vim.lsp.stop_client(client)
vim.cmd('qa!')
