// The Vue 3 host app's entry: configures the elements once, then mounts the app.
import { configure } from 'channel-elements';
import { createApp } from 'vue';
import App from './App.vue';

const apiUrl = document.querySelector<HTMLMetaElement>('meta[name="channel-api"]')?.content;
configure({ channelKey: 'demo', ...(apiUrl ? { apiUrl } : {}) });

createApp(App).mount('#app');
