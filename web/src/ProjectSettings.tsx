import {
  AddToolServerDocument,
  ProjectToolServersDocument,
  RefreshToolServerDocument,
  RemoveToolServerDocument,
  type ClientToolServerFieldsFragment as ToolServer,
  type ToolServerHeaderInput as ToolServerHeader,
} from '@parley/client';
import { useAction, useParleyClient, useParleyQuery } from '@parley/client/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMessages } from './i18n.ts';

/**
 * A project's settings: its tool servers with their status, last error, header names (the API never
 * answers their values) and tools; its admins add, refresh and remove them. A refused change shows
 * the server's message and changes nothing.
 */
export function ProjectSettings({ projectId, onClose }: { projectId: string; onClose: () => void }) {
  const t = useMessages();
  const project = useParleyQuery(ProjectToolServersDocument, { projectId });
  const heading = useRef<HTMLHeadingElement>(null);
  const data = project.data?.project;
  const admin = data?.viewerRole === 'ADMIN';
  const refetch = async () => {
    await project.refetch();
  };

  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="settings" aria-labelledby="settings-title" aria-busy={project.loading}>
      <div className="settings-top">
        <h2 id="settings-title" ref={heading} tabIndex={-1}>
          {t.toolServersOf(data?.name ?? '…')}
        </h2>
        <button type="button" onClick={onClose}>
          {t.backToChat}
        </button>
      </div>
      {project.error && (
        <p role="alert" className="notice">
          {project.error.message}
        </p>
      )}
      {data && (
        <>
          {data.toolServers.length === 0 ? (
            <p className="hint">{t.noToolServers}</p>
          ) : (
            <ul className="tool-servers" aria-label={t.toolServers}>
              {data.toolServers.map((server) => (
                <ToolServerItem key={server.id} server={server} admin={admin} onChanged={refetch} />
              ))}
            </ul>
          )}
          {admin ? <AddToolServerForm projectId={data.id} onAdded={refetch} /> : <p className="hint">{t.adminsOnly}</p>}
        </>
      )}
    </section>
  );
}

function ToolServerItem({ server, admin, onChanged }: { server: ToolServer; admin: boolean; onChanged: () => Promise<void> }) {
  const t = useMessages();
  const client = useParleyClient();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const [refresh, refreshing] = useAction(async (toolServerId: string) => {
    const result = await client.request(RefreshToolServerDocument, { toolServerId });
    return result.__typename === 'RequestError' ? result : result.refreshToolServer;
  });
  const [remove, removing] = useAction(async (toolServerId: string) => {
    const result = await client.request(RemoveToolServerDocument, { toolServerId });
    return result.__typename === 'RequestError' ? result : result.removeToolServer;
  });
  const problem = refreshing.error?.message ?? removing.error?.message;
  return (
    <li className="tool-server" aria-labelledby={titleId} data-status={server.status}>
      <div className="tool-server-title">
        <h3 id={titleId}>{server.name}</h3>
        <span className={`badge server-status status-${server.status.toLowerCase()}`}>{t.serverStatus[server.status] ?? server.status}</span>
        {server.operatorDeclared && <span className="badge">{t.operatorDeclared}</span>}
      </div>
      <dl className="tool-server-facts">
        <div>
          <dt>{t.serverUrl}</dt>
          <dd className="server-url">{server.url}</dd>
        </div>
        <div>
          <dt>{t.serverTransport}</dt>
          <dd>{server.transport}</dd>
        </div>
        <div>
          <dt>{t.serverHeaders}</dt>
          <dd className="header-names">{server.headerNames.length > 0 ? server.headerNames.join(', ') : t.noHeaders}</dd>
        </div>
        <div>
          <dt>{t.serverTimeout}</dt>
          <dd>{server.timeoutMs != null ? t.toolDuration(server.timeoutMs) : t.defaultTimeout}</dd>
        </div>
        {server.reconnects > 0 && server.lastReconnectAt && (
          <div>
            <dt>{t.reconnects}</dt>
            <dd className="reconnects">{t.reconnectCount(server.reconnects, new Date(server.lastReconnectAt).toLocaleString(document.documentElement.lang || undefined))}</dd>
          </div>
        )}
        {server.lastError && (
          <div>
            <dt>{t.lastError}</dt>
            <dd className="last-error">{server.lastError}</dd>
          </div>
        )}
      </dl>
      <h4>{t.serverTools}</h4>
      {server.tools.length === 0 ? (
        <p className="hint">{t.noServerTools}</p>
      ) : (
        <ul className="server-tools" aria-label={t.toolsOf(server.name)}>
          {server.tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code>
              {tool.description && <span className="hint"> {tool.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {admin && !confirming && (
        <div className="tool-server-actions">
          <button
            type="button"
            aria-label={t.refreshServer(server.name)}
            disabled={refreshing.pending}
            onClick={async () => {
              const result = await refresh(server.id);
              if (result.__typename === 'ToolServer') await onChanged();
            }}
          >
            {refreshing.pending ? t.refreshing : t.refresh}
          </button>
          {!server.operatorDeclared && (
            <button type="button" aria-label={t.removeServer(server.name)} onClick={() => setConfirming(true)}>
              {t.remove}
            </button>
          )}
        </div>
      )}
      {confirming && (
        <div role="alertdialog" aria-label={t.removeServer(server.name)} className="confirm-delete">
          <p>{t.confirmRemoveServer(server.name)}</p>
          <button
            type="button"
            disabled={removing.pending}
            onClick={async () => {
              const result = await remove(server.id);
              setConfirming(false);
              if (result.__typename === 'ToolServerRemoved') await onChanged();
            }}
          >
            {t.removeForGood}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t.cancel}
          </button>
        </div>
      )}
      {problem && <p role="alert">{problem}</p>}
    </li>
  );
}

interface HeaderRow {
  key: number;
  name: string;
  value: string;
}

/**
 * Name, URL, optional timeout and headers. Header values are password fields, emptied after every
 * submit (they are never shown again); a refused add keeps the rest of the form to correct.
 */
function AddToolServerForm({ projectId, onAdded }: { projectId: string; onAdded: () => Promise<void> }) {
  const t = useMessages();
  const client = useParleyClient();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [timeoutMs, setTimeoutMs] = useState('');
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [added, setAdded] = useState<string | null>(null);
  const nextKey = useRef(0);
  const [add, adding] = useAction(
    async (input: { name: string; url: string; headers: ToolServerHeader[] | null; timeoutMs: number | null }) => {
      const result = await client.request(AddToolServerDocument, { projectId, ...input });
      return result.__typename === 'RequestError' ? result : result.addToolServer;
    },
  );
  // An InvalidInputError names its field: that input is marked invalid.
  const invalid = adding.error && 'field' in adding.error ? adding.error.field : null;
  const setHeader = (key: number, change: Partial<HeaderRow>) =>
    setHeaders((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    const given = headers.filter((row) => row.name.trim() || row.value);
    const input = {
      name: name.trim(),
      url: url.trim(),
      headers: given.length > 0 ? given.map((row) => ({ name: row.name.trim(), value: row.value })) : null,
      timeoutMs: timeoutMs.trim() ? Number(timeoutMs) : null,
    };
    // The values leave the page with the request: never kept in the form afterwards.
    setHeaders((rows) => rows.map((row) => ({ ...row, value: '' })));
    const result = await add(input);
    if (result.__typename !== 'ToolServer') return;
    setName('');
    setUrl('');
    setTimeoutMs('');
    setHeaders([]);
    setAdded(result.name);
    await onAdded();
  };

  return (
    <form className="add-tool-server" aria-labelledby="add-server-title" onSubmit={(event) => void submit(event)}>
      <h3 id="add-server-title">{t.addServerTitle}</h3>
      <label>
        <span>{t.serverName}</span>
        <input value={name} required autoComplete="off" aria-describedby="server-name-hint" aria-invalid={invalid === 'name' || undefined} onChange={(event) => setName(event.target.value)} />
      </label>
      <p id="server-name-hint" className="hint">
        {t.serverNameHint}
      </p>
      <label>
        <span>{t.serverUrl}</span>
        <input value={url} required autoComplete="off" inputMode="url" aria-invalid={invalid === 'url' || undefined} placeholder="https://" onChange={(event) => setUrl(event.target.value)} />
      </label>
      <label>
        <span>{t.timeoutMs}</span>
        <input value={timeoutMs} type="number" aria-invalid={invalid === 'timeoutMs' || undefined} min={1} step={1} inputMode="numeric" onChange={(event) => setTimeoutMs(event.target.value)} />
      </label>
      <fieldset className="headers">
        <legend>{t.serverHeaders}</legend>
        <p className="hint">{t.headersHint}</p>
        {headers.map((row, index) => (
          <div key={row.key} className="header-row">
            <label>
              <span>{t.headerName(index + 1)}</span>
              <input value={row.name} autoComplete="off" placeholder="Authorization" onChange={(event) => setHeader(row.key, { name: event.target.value })} />
            </label>
            <label>
              <span>{t.headerValue(index + 1)}</span>
              <input
                value={row.value}
                type="password"
                autoComplete="new-password"
                onChange={(event) => setHeader(row.key, { value: event.target.value })}
              />
            </label>
            <button type="button" aria-label={t.removeHeader(index + 1)} onClick={() => setHeaders((rows) => rows.filter((other) => other.key !== row.key))}>
              {t.remove}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setHeaders((rows) => [...rows, { key: nextKey.current++, name: '', value: '' }])}>
          {t.addHeader}
        </button>
      </fieldset>
      <button type="submit" disabled={adding.pending}>
        {t.addServer}
      </button>
      {adding.error && (
        <p role="alert" className="notice">
          {adding.error.message}
        </p>
      )}
      {added && !adding.pending && <p role="status">{t.serverAdded(added)}</p>}
    </form>
  );
}
