// Matchers such as toBeInTheDocument, and the browser APIs antd expects that jsdom lacks.
import '@testing-library/jest-dom';
import { cleanup } from '@testing-library/react';

afterEach(() => cleanup());

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStandIn {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStandIn;
}

// react-router (the POS checkout's link) reads TextEncoder at import; jsdom's window lacks it.
if (!('TextEncoder' in globalThis)) {
  const { TextEncoder, TextDecoder } = require('node:util') as typeof import('node:util');
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}

// antd's helpers schedule work with a MessageChannel, which jsdom does not have: a timer-based one.
if (!('MessageChannel' in window)) {
  type Listener = ((event: { data: unknown }) => void) | null;
  class PortStandIn {
    onmessage: Listener = null;
    other: PortStandIn | null = null;
    postMessage(data: unknown) {
      const target = this.other;
      setTimeout(() => target?.onmessage?.({ data }), 0);
    }
    start() {}
    close() {
      this.onmessage = null;
    }
    addEventListener() {}
    removeEventListener() {}
  }
  class MessageChannelStandIn {
    port1 = new PortStandIn();
    port2 = new PortStandIn();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  }
  (globalThis as unknown as { MessageChannel: unknown }).MessageChannel = MessageChannelStandIn;
}

// jsdom has no pseudo-elements: antd asks for a scrollbar's (::-webkit-scrollbar) style; the element's own answers.
const elementStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => elementStyle(element);
