import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { SharedPage, shareTokenInLocation } from './SharedPage.tsx';
import { takeTokenFromLink } from './token.ts';
import './styles.css';

// A share link's page is read without signing in: it neither takes nor reads the chat's token.
const shareToken = shareTokenInLocation();
if (!shareToken) takeTokenFromLink();
createRoot(document.getElementById('root')!).render(<StrictMode>{shareToken ? <SharedPage token={shareToken} /> : <App />}</StrictMode>);
