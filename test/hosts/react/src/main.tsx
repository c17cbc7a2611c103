// The React 19 host app's entry: configures the elements once, then renders the app.
import { configure } from 'channel-elements';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const apiUrl = document.querySelector<HTMLMetaElement>('meta[name="channel-api"]')?.content;
configure({ channelKey: 'demo', ...(apiUrl ? { apiUrl } : {}) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
