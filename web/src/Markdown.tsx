import { memo, useState, type ComponentProps, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { useMessages } from './i18n.ts';
import './markdown.css';

// An assistant's reply as GitHub-flavoured Markdown, re-rendered with every streamed delta.
// react-markdown builds React elements from the syntax tree: the model's raw HTML is dropped, never
// parsed as HTML (no rehype-raw), nothing is set through innerHTML, and highlighting is class names
// (styles.css), so the page's Content-Security-Policy needs nothing inline.

/** Links the reply may open: the web and mail, never `javascript:` or `data:`. */
const SAFE_LINK = /^(?:https?:|mailto:)/i;

export function safeLinkTarget(url: string): string | null {
  return SAFE_LINK.test(url.trim()) ? url : null;
}

/**
 * What the renderer is given while a reply streams: an unclosed code fence is closed, so the
 * code shows as code from its first line instead of flipping between paragraph and block with
 * each delta; a table's rows show once their line is complete (a half-written row would reshape
 * the table at every character).
 */
export function settledForStreaming(text: string): string {
  const fences = text.match(/^ {0,3}(`{3,}|~{3,})/gm) ?? [];
  if (fences.length % 2 === 1) return `${text}\n${fences.at(-1)!.trim()}`;
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  return /^\s*\|/.test(lastLine) && !/\|\s*$/.test(lastLine) ? text.slice(0, text.length - lastLine.length) : text;
}

const components: Components = {
  a: ({ href, children }) => {
    const target = href ? safeLinkTarget(href) : null;
    if (!target) return <span className="unsafe-link">{children}</span>;
    return (
      <a href={target} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  },
  // The model's images would load from anywhere (the policy blocks them anyway): their text instead.
  img: ({ alt }) => <span className="image-alt">{alt ? `[${alt}]` : ''}</span>,
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

/** A code block with a Copy button (the text as it is, without the highlighting's markup). */
function CodeBlock({ children }: { children: ReactNode }) {
  const t = useMessages();
  const [copied, setCopied] = useState(false);
  const copy = (event: { currentTarget: HTMLElement }) => {
    const code = event.currentTarget.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard?.writeText(code).then(() => setCopied(true));
  };
  return (
    <div className="code-block">
      <button type="button" className="copy-code" onClick={copy}>
        {copied ? t.copied : t.copyCode}
      </button>
      <pre>{children}</pre>
    </div>
  );
}

const plugins: Pick<ComponentProps<typeof ReactMarkdown>, 'remarkPlugins' | 'rehypePlugins'> = {
  remarkPlugins: [remarkGfm],
  rehypePlugins: [[rehypeHighlight, { detect: false }]],
};

/** A reply's text as Markdown; the same text renders once. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    // `text` as any text part of a message (what readers of the page, and its tests, look for).
    <div className="text markdown">
      <ReactMarkdown {...plugins} components={components} urlTransform={(url) => safeLinkTarget(url) ?? ''}>
        {settledForStreaming(text)}
      </ReactMarkdown>
    </div>
  );
});
