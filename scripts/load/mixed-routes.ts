/**
 * The wrk Lua script for mixed-route load: each connection walks a list of paths (pages, a
 * missing page, hashed assets, robots.txt, sitemap.xml, the favicon, the health check) and
 * every response is counted by status class; done() prints the totals as WRK_JSON.
 */
export function mixedRoutesLua(paths: string[]): string {
  const list = paths.map((p) => `"${p.replace(/["\\]/g, '\\$&')}"`).join(', ');
  return `
local paths = { ${list} }
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  s2xx, s3xx, s404, s4xx, s5xx = 0, 0, 0, 0, 0
  i = math.random(#paths)
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end

function response(status, headers, body)
  if status >= 500 then s5xx = s5xx + 1
  elseif status == 404 then s404 = s404 + 1
  elseif status >= 400 then s4xx = s4xx + 1
  elseif status >= 300 then s3xx = s3xx + 1
  else s2xx = s2xx + 1 end
end

function done(summary, latency, requests)
  local t = { s2xx = 0, s3xx = 0, s404 = 0, s4xx = 0, s5xx = 0 }
  for _, thread in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + (thread:get(k) or 0) end
  end
  io.write(string.format('WRK_JSON {"s2xx":%d,"s3xx":%d,"s404":%d,"s4xx":%d,"s5xx":%d}\\n', t.s2xx, t.s3xx, t.s404, t.s4xx, t.s5xx))
end
`;
}
